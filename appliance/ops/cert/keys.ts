/**
 * RSA key pairs. node:crypto (BoringSSL in Bun) generates a 2048-bit key in milliseconds, where
 * node-forge's pure-JS generator takes around a second, so keys always come from here and forge only
 * signs certificates.
 */
import { generateKeyPairSync } from "node:crypto";

export interface RsaKeyPair {
  /** SubjectPublicKeyInfo PEM ("PUBLIC KEY"), what GET /api/_/pubkey serves */
  publicKeyPem: string;
  /** PKCS#8 PEM ("PRIVATE KEY") */
  privateKeyPem: string;
}

export function makeRsaKeyPair(bits = 2048): RsaKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: bits,
    publicExponent: 0x10001,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}
