/**
 * CryptoNote share targets as xmrig reads them (Job::setTarget): a 4-byte hex target is a little-
 * endian u32 t widened to 0xFFFFFFFFFFFFFFFF / (0xFFFFFFFF / t) with integer division; an 8-byte one
 * is the little-endian u64 itself. A share's difficulty is 2^64 / target64, i.e. ≈ 2^32 / t for the
 * short form. The widening is kept exact (not 2^32 / t) because pools credit what the miner was told.
 */
import { remembered } from "../intern.ts";

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const U32_MAX = 0xffff_ffffn;
const TWO_64 = 2 ** 64;
const HEX = /^[0-9a-fA-F]+$/;

function readLe(hex: string): bigint {
  let v = 0n;
  for (let i = hex.length - 2; i >= 0; i -= 2)
    v = (v << 8n) | BigInt(Number.parseInt(hex.slice(i, i + 2), 16));
  return v;
}

function readTarget(hex: string): number | null {
  if ((hex.length !== 8 && hex.length !== 16) || !HEX.test(hex)) return null;
  const t = readLe(hex);
  if (t === 0n) return null;
  const target64 = hex.length === 8 ? U64_MAX / (U32_MAX / t) : t;
  return TWO_64 / Number(target64);
}

/**
 * The difficulty a hex target stands for, or null for anything but 8 or 16 hex digits (or zero);
 * remembered: every job of every session carries a target, and reading one makes a dozen bigints.
 */
export const difficultyOfTarget = remembered(readTarget);
