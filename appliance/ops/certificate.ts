/**
 * TLS certificate handling for the web console (spec §3 "Certificate", §7 /api/cert*): the built-in
 * self-signed certificate, and checking an uploaded certificate (crt or pem) against its key before it
 * is stored, so a bad upload is refused instead of breaking HTTPS at the next restart. Parsing and the
 * key match use node:crypto (handles RSA and EC keys); forge only issues the self-signed certificate.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from "node:crypto";
import { pemBlocks, toPemText } from "./cert/pem.ts";

export { makeRsaKeyPair, type RsaKeyPair } from "./cert/keys.ts";
export { type CertAndKey, makeSelfSigned } from "./cert/selfsigned.ts";

export interface CertInfo {
  /** e.g. "CN=example.com, O=Acme" */
  subject: string;
  issuer: string;
  /** ISO 8601 */
  notBefore: string;
  notAfter: string;
  /** SHA-256 fingerprint, colon-separated hex */
  fingerprint: string;
  serial: string;
  /** subjectAltName entries, e.g. ["DNS:localhost", "IP Address:127.0.0.1"] */
  altNames: string[];
  selfSigned: boolean;
  expired: boolean;
  /** number of certificates in the upload (leaf + intermediates) */
  chainLength: number;
}

export type CertCheckReason = "cert_malformed" | "key_malformed" | "key_mismatch";

export type CertCheck =
  | ({ ok: true; certPem: string; keyPem: string } & CertInfo)
  | { ok: false; reason: CertCheckReason; message: string };

/** Details of a stored certificate (PEM), for GET /api/cert. Throws on malformed input. */
export function certInfo(certPem: string): CertInfo {
  const parsed = parseCertificates(certPem);
  if (!parsed) throw new Error("not a certificate");
  return describe(parsed.leaf, parsed.chain.length);
}

/**
 * Checks an uploaded certificate and key: both parse, and the key is the private half of the leaf
 * certificate's public key. On success returns the normalised PEM to store (DER or bare base64 uploads
 * become PEM) with the certificate's details.
 */
export function checkPair(cert: string | Uint8Array, key: string | Uint8Array): CertCheck {
  const certText = toPemText(cert, "CERTIFICATE");
  const parsed = certText === null ? null : parseCertificates(certText);
  if (!parsed) {
    return {
      ok: false,
      reason: "cert_malformed",
      message: "The certificate is not a valid X.509 certificate",
    };
  }
  const privateKey = parsePrivateKey(key);
  if (!privateKey) {
    return {
      ok: false,
      reason: "key_malformed",
      message: "The key is not a valid unencrypted private key",
    };
  }
  if (!parsed.leaf.checkPrivateKey(privateKey)) {
    return { ok: false, reason: "key_mismatch", message: "The key does not belong to the certificate" };
  }
  return {
    ok: true,
    certPem: parsed.chain.join(""),
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    ...describe(parsed.leaf, parsed.chain.length),
  };
}

function parseCertificates(text: string): { leaf: X509Certificate; chain: string[] } | null {
  const chain = pemBlocks(text)
    .filter((b) => b.label === "CERTIFICATE")
    .map((b) => b.pem);
  const first = chain[0];
  if (first === undefined) return null;
  try {
    const leaf = new X509Certificate(first);
    // every intermediate must parse too, or TLS would fail with a half-valid chain
    for (const pem of chain.slice(1)) new X509Certificate(pem);
    return { leaf, chain };
  } catch {
    return null;
  }
}

function parsePrivateKey(key: string | Uint8Array): KeyObject | null {
  const text = toPemText(key, "PRIVATE KEY");
  if (text === null) return null;
  const block = pemBlocks(text).find(
    (b) => b.label.endsWith("PRIVATE KEY") && !b.label.startsWith("ENCRYPTED"),
  );
  if (!block) return null;
  try {
    // an empty passphrase makes an encrypted key fail here instead of prompting or hanging
    return createPrivateKey({ key: block.pem, format: "pem", passphrase: "" });
  } catch {
    return null;
  }
}

function describe(cert: X509Certificate, chainLength: number): CertInfo {
  const notAfter = new Date(cert.validTo);
  return {
    subject: oneLine(cert.subject),
    issuer: oneLine(cert.issuer),
    notBefore: new Date(cert.validFrom).toISOString(),
    notAfter: notAfter.toISOString(),
    fingerprint: cert.fingerprint256,
    serial: cert.serialNumber,
    altNames: (cert.subjectAltName ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
    selfSigned: cert.subject === cert.issuer && cert.verify(cert.publicKey),
    expired: notAfter.getTime() < Date.now(),
    chainLength,
  };
}

/** X509Certificate separates RDNs with newlines; one line reads better in the console and logs. */
function oneLine(dn: string): string {
  return dn.split("\n").filter(Boolean).join(", ");
}
