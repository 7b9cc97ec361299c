import { randomUUID } from "node:crypto";

export const CAPTCHA_TTL_MS = 5 * 60_000;
const MAX_PENDING = 1000;

/**
 * Captcha challenges: single use, expiring, and a failed answer burns the challenge, so an attacker
 * gets one guess per image. In test mode (`fixedCode`) every challenge's answer is that code.
 */
export class CaptchaService {
  private readonly pending = new Map<string, { code: string; expires: number }>();

  constructor(
    private readonly makeCode: () => string,
    private readonly fixedCode: string | null = null,
    private readonly now: () => number = Date.now,
  ) {}

  create(): { id: string; code: string } {
    this.sweep();
    const id = randomUUID();
    const code = this.fixedCode ?? this.makeCode();
    this.pending.set(id, { code, expires: this.now() + CAPTCHA_TTL_MS });
    return { id, code };
  }

  /** Consumes the challenge whatever the answer. */
  check(id: string, answer: string): boolean {
    const entry = this.pending.get(id);
    this.pending.delete(id);
    if (!entry || entry.expires <= this.now()) return false;
    return entry.code.toLowerCase() === answer.trim().toLowerCase();
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, e] of this.pending) if (e.expires <= now) this.pending.delete(id);
    // Bound memory against a flood of captcha requests: drop the oldest.
    while (this.pending.size >= MAX_PENDING) {
      const first = this.pending.keys().next().value;
      if (first === undefined) break;
      this.pending.delete(first);
    }
  }
}
