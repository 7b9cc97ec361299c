import type { SettingsStore } from "../store/settings.ts";
import { type CertInfo, certInfo, checkPair, makeSelfSigned } from "./certificate.ts";

const KEY = "certificate";

/** A certificate as the API shows it: who it names, until when, its fingerprint; never the key. */
export type CertificateView = CertInfo & { builtin: boolean };

export interface StoredCertificate {
  cert: string;
  key: string;
  /** true = the self-signed certificate made at first start */
  builtin: boolean;
}

/**
 * The appliance's one TLS certificate (SSL/TTS proxy ports and HTTPS console): the built-in
 * self-signed one made at first start, or one the operator uploaded after it was checked.
 */
export class CertificateService {
  constructor(private readonly settings: SettingsStore) {}

  current(): StoredCertificate {
    const stored = this.settings.get<StoredCertificate | null>(KEY, null);
    if (stored) return stored;
    return this.reset();
  }

  /** Replaces the certificate after checking that both parse and the key matches; returns the reason if not. */
  upload(cert: string, key: string): { ok: true } | { ok: false; reason: string } {
    const check = checkPair(cert, key);
    if (!check.ok) return { ok: false, reason: check.message };
    // Store the normalised PEM: a DER or bare-base64 upload must still work as TLS material later.
    this.settings.set<StoredCertificate>(KEY, { cert: check.certPem, key: check.keyPem, builtin: false });
    return { ok: true };
  }

  /** What the console shows: never the key. */
  describe(): CertificateView {
    const c = this.current();
    return { builtin: c.builtin, ...certInfo(c.cert) };
  }

  reset(): StoredCertificate {
    const made = makeSelfSigned("pithead.local");
    const stored: StoredCertificate = { cert: made.cert, key: made.key, builtin: true };
    this.settings.set(KEY, stored);
    return stored;
  }
}
