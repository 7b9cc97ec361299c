/**
 * The appliance certificate (SSL/TTS ports and HTTPS console) expiring within the operator's number
 * of days, or expired; clears when a certificate with more time is installed.
 */
import { certInfo } from "../ops/certificate.ts";
import { type OpenEpisode, type Rule, type RuleResult, silenced } from "./alert-change.ts";
import type { AlertRules } from "./rule-settings.ts";
import type { AlertSources } from "./sources.ts";

const SUBJECT = "certificate";
const DAY = 86_400_000;

export class CertRule implements Rule<AlertRules> {
  readonly kind = "cert_expiry";
  /** parsing a certificate on every tick is wasted work: it changes only on upload */
  private parsed: { pem: string; notAfter: number } | null = null;

  constructor(private readonly sources: AlertSources) {}

  check(now: number, settings: AlertRules, open: ReadonlyMap<string, OpenEpisode>): RuleResult {
    if (settings.cert_days === 0) return silenced(open);
    const pem = this.sources.certificatePem();
    if (this.parsed?.pem !== pem) this.parsed = { pem, notAfter: Date.parse(certInfo(pem).notAfter) };
    const left = this.parsed.notAfter - now;
    const expiring = left < settings.cert_days * DAY;
    if (open.has(SUBJECT)) return { firing: [], resolved: expiring ? [] : [SUBJECT], quiet: [] };
    if (!expiring) return { firing: [], resolved: [], quiet: [] };
    const date = new Date(this.parsed.notAfter).toISOString().slice(0, 10);
    return {
      firing: [{ subject: SUBJECT, portId: null, vars: { date, days: Math.max(0, Math.floor(left / DAY)) } }],
      resolved: [],
      quiet: [],
    };
  }
}
