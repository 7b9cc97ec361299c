/**
 * The built-in self-signed certificate (spec §3 "Certificate", "restore the built-in one"). node:crypto
 * cannot issue certificates, so forge builds and signs it; the key itself comes from node:crypto.
 */
import { randomBytes } from "node:crypto";
import forge from "node-forge";
import { makeRsaKeyPair } from "./keys.ts";

export interface CertAndKey {
  /** certificate PEM */
  cert: string;
  /** PKCS#8 private key PEM */
  key: string;
}

const VALID_YEARS = 10;
const IPV4 = /^(\d{1,3})(\.\d{1,3}){3}$/;

/**
 * RSA 2048, SHA-256, valid 10 years from yesterday (so a box whose clock is a little behind still
 * accepts it), SAN localhost and 127.0.0.1 plus the common name itself, because browsers ignore the CN.
 */
export function makeSelfSigned(commonName: string, serial: Uint8Array = randomBytes(16)): CertAndKey {
  const { privateKeyPem, publicKeyPem } = makeRsaKeyPair(2048);
  const privateKey = forge.pki.privateKeyFromPem(privateKeyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKeyPem);
  cert.serialNumber = serialHex(serial);
  const notBefore = new Date(Date.now() - 24 * 3600 * 1000);
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALID_YEARS);
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  const attrs = [
    { name: "commonName", value: commonName },
    { name: "organizationName", value: "Pithead" },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
    { name: "extKeyUsage", serverAuth: true },
    { name: "subjectAltName", altNames: altNames(commonName) },
  ]);
  cert.sign(privateKey, forge.md.sha256.create());
  // forge writes CRLF; stored PEM uses LF like everything else on the box
  return { cert: forge.pki.certificateToPem(cert).replace(/\r\n/g, "\n"), key: privateKeyPem };
}

/**
 * A DER integer must be positive and minimal: forge writes the hex as given, so a first byte of 0x00
 * (or a leading zero nibble padded to one) made 1 certificate in 16 unreadable (INVALID_INTEGER) and the
 * HTTPS console fail to start. The first byte is kept within 0x40..0x7f: positive, never a zero byte.
 */
export function serialHex(bytes: Uint8Array): string {
  const b = Uint8Array.from(bytes);
  b[0] = ((b[0] ?? 0) & 0x3f) | 0x40;
  return Buffer.from(b).toString("hex");
}

type AltName = { type: 2; value: string } | { type: 7; ip: string };

function altNames(commonName: string): AltName[] {
  const names: AltName[] = [
    { type: 2, value: "localhost" },
    { type: 7, ip: "127.0.0.1" },
  ];
  if (IPV4.test(commonName)) {
    if (commonName !== "127.0.0.1") names.push({ type: 7, ip: commonName });
  } else if (commonName !== "localhost" && /^[A-Za-z0-9.-]+$/.test(commonName)) {
    names.push({ type: 2, value: commonName });
  }
  return names;
}
