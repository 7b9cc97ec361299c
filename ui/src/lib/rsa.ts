/** Login password encryption (design: plain-HTTP LAN pages have no WebCrypto). Loaded on demand. */
import type Forge from "node-forge";
import forgeBase from "node-forge/lib/forge";
import "node-forge/lib/rsa";
import "node-forge/lib/pem";
import "node-forge/lib/asn1";
import "node-forge/lib/pkcs1";
import "node-forge/lib/sha256";
import "node-forge/lib/util";

const forge = forgeBase as typeof Forge;

/** base64 of RSA-OAEP(SHA-256, MGF1-SHA-256) over the UTF-8 text. */
export function encryptPassword(pem: string, text: string): string {
  const der = forge.pem.decode(pem)[0];
  if (!der) throw new Error("bad public key");
  const key = forge.pki.publicKeyFromAsn1(forge.asn1.fromDer(der.body)) as Forge.pki.rsa.PublicKey;
  const bytes = forge.util.encodeUtf8(text);
  const sealed = key.encrypt(bytes, "RSA-OAEP", {
    md: forge.md.sha256.create(),
    mgf1: { md: forge.md.sha256.create() },
  });
  return forge.util.encode64(sealed);
}
