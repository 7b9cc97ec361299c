import { X509Certificate } from "node:crypto";
import { connect } from "node:tls";

/**
 * The SHA-256 fingerprint of the certificate a TLS listener presents, read with node:tls without
 * trusting it: what a test compares the appliance's own answers with.
 */
export function servedFingerprint(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      const raw = s.getPeerCertificate().raw;
      s.destroy();
      resolve(new X509Certificate(raw).fingerprint256);
    });
    s.once("error", reject);
  });
}
