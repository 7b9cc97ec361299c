/**
 * The RMS password (Settings → RMS, docs/rms-tunnel.md "The client frame"): a tunnel client proves it
 * knows the password with a value derived from it, never the password itself. The proof travels only
 * inside the KENC link, but whoever holds the KENC key could read it there: scrypt makes guessing the
 * password from it slow, where a plain hash would not.
 */
import { scryptSync, timingSafeEqual } from "node:crypto";
import { PROOF_BYTES } from "./frames.ts";

const SALT = "pithead-rms-password-v1";

/** the last password derived: scrypt costs tens of ms, and the server checks every handshake */
let last: { password: string; proof: Uint8Array } | null = null;

/** The password's proof: scrypt (N 16384, r 8, p 1) with the salt above, 32 bytes. */
export function passwordProof(password: string): Uint8Array {
  if (last?.password !== password) last = { password, proof: scryptSync(password, SALT, PROOF_BYTES) };
  return last.proof;
}

/** Whether `given` is the proof of `password`, in time that does not depend on where they differ. */
export function proofMatches(password: string, given: Uint8Array | null): boolean {
  return given !== null && given.length === PROOF_BYTES && timingSafeEqual(passwordProof(password), given);
}
