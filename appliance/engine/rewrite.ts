/**
 * Who a miner is presented as upstream: wallet replacement (pattern_addr → replace_addr),
 * miner-name replacement (setting.sd → setting.st, `*` matches all), unified wallet
 * (setting.cp_mode → proxy_addr) and unified device name (setting.cp_name → proxy_device).
 * Pool mode always unifies. Applied once at authorize, never per share.
 */
import { type Port, ProxyMode } from "../domain/port.ts";

export interface Identity {
  wallet: string;
  name: string;
}

/** "wallet.worker": the wallet is what precedes the first dot. */
export function splitUser(user: string): Identity {
  const dot = user.indexOf(".");
  return dot < 0 ? { wallet: user, name: "" } : { wallet: user.slice(0, dot), name: user.slice(dot + 1) };
}

export const joinUser = (id: Identity): string => (id.name ? `${id.wallet}.${id.name}` : id.wallet);

const lines = (text: string): string[] =>
  text
    .split(/[\r\n,]+/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);

export function rewriteIdentity(id: Identity, port: Port): Identity {
  let { wallet, name } = id;
  const replaceAddr = port.replace_addr.trim();
  if (replaceAddr && lines(port.pattern_addr).includes(wallet)) wallet = replaceAddr;
  const st = port.setting.st.trim();
  if (st) {
    const names = lines(port.setting.sd);
    if (names.includes("*") || names.includes(name)) name = st;
  }
  const pool = port.mode === ProxyMode.POOL;
  if ((pool || port.setting.cp_mode === 1) && port.proxy_addr.trim()) wallet = port.proxy_addr.trim();
  if ((pool || port.setting.cp_name === 1) && port.proxy_device.trim()) name = port.proxy_device.trim();
  // most ports rewrite nothing: the miner's own identity, without a copy at every login
  return wallet === id.wallet && name === id.name ? id : { wallet, name };
}
