/** The encryption key's derived display value: md5(key)[8:24] (spec §3). Loaded with its dialog. */
import type Forge from "node-forge";
import forgeBase from "node-forge/lib/forge";
import "node-forge/lib/md5";
import "node-forge/lib/util";

const forge = forgeBase as typeof Forge;

export function md5Hex(text: string): string {
  return forge.md.md5.create().update(forge.util.encodeUtf8(text)).digest().toHex();
}

export function derivedKey(key: string): string {
  return key ? md5Hex(key).slice(8, 24) : "";
}
