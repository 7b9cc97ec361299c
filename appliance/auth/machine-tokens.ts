/**
 * Credentials for machines, each with one scope: the group-control token (a central instance
 * managing this one) and the metrics token (a Prometheus scraper). Neither is an admin session:
 * each may call only the routes of its scope (web/handler.ts), and both are replaced when the admin
 * password is changed or reset, so a token that leaked with the old password stops working.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { SettingsStore } from "../store/settings.ts";

export type MachineScope = "control" | "metrics";
export const MACHINE_SCOPES: readonly MachineScope[] = ["control", "metrics"];

/** `api_token` is the setting name earlier releases stored the group-control token under. */
const SETTING: Record<MachineScope, string> = { control: "api_token", metrics: "metrics_token" };

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export class MachineTokens {
  constructor(private readonly settings: SettingsStore) {}

  /** The token of a scope, made on first use. */
  get(scope: MachineScope): string {
    let token = this.settings.get<string>(SETTING[scope], "");
    if (!token) {
      token = randomBytes(24).toString("base64url");
      this.settings.set(SETTING[scope], token);
    }
    return token;
  }

  set(scope: MachineScope, token: string): void {
    this.settings.set(SETTING[scope], token);
  }

  /** A new random token for the scope; the old one stops working at once. */
  rotate(scope: MachineScope): string {
    this.settings.delete(SETTING[scope]);
    return this.get(scope);
  }

  /** Password changed or reset: every machine credential is replaced. */
  rotateAll(): void {
    for (const scope of MACHINE_SCOPES) this.settings.delete(SETTING[scope]);
  }

  /** The scope a presented token belongs to, compared in constant time; null when it is none. */
  scopeOf(presented: string): MachineScope | null {
    for (const scope of MACHINE_SCOPES) {
      const expected = this.settings.get<string>(SETTING[scope], "");
      if (expected && same(presented, expected)) return scope;
    }
    return null;
  }
}
