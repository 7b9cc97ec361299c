import { randomUUID } from "node:crypto";

export const CAPTCHA_TTL_MS = 5 * 60_000;
/**
 * Pending captchas one client address may hold: enough for a few open login tabs; asking for more
 * drops that address's oldest, never another address's.
 */
export const MAX_PER_ADDRESS = 5;
/** Addresses with pending captchas; past it the address that asked least recently loses its captchas. */
export const MAX_ADDRESSES = 2000;

interface Pending {
  code: string;
  expires: number;
  address: string;
}

/**
 * Captcha challenges: single use, expiring, and a failed answer burns the challenge, so an attacker
 * gets one guess per image. The store is bounded per address, so a flood of captcha requests from one
 * address cannot push out the admin's pending captcha. In test mode (`fixedCode`) every challenge's
 * answer is that code.
 */
export class CaptchaService {
  private readonly pending = new Map<string, Pending>();
  /** address → its pending ids, oldest first; the map itself is ordered by each address's last request */
  private readonly byAddress = new Map<string, string[]>();

  constructor(
    private readonly makeCode: () => string,
    private readonly fixedCode: string | null = null,
    private readonly now: () => number = Date.now,
  ) {}

  create(address: string): { id: string; code: string } {
    const now = this.now();
    const id = randomUUID();
    const code = this.fixedCode ?? this.makeCode();
    const ids = (this.byAddress.get(address) ?? []).filter((old) => this.live(old, now));
    while (ids.length >= MAX_PER_ADDRESS) this.pending.delete(ids.shift() as string);
    ids.push(id);
    this.pending.set(id, { code, expires: now + CAPTCHA_TTL_MS, address });
    this.byAddress.delete(address);
    this.byAddress.set(address, ids);
    if (this.byAddress.size > MAX_ADDRESSES) this.dropLeastRecentAddress();
    return { id, code };
  }

  /** Consumes the challenge whatever the answer. */
  check(id: string, answer: string): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    const ids = this.byAddress.get(entry.address)?.filter((other) => other !== id) ?? [];
    if (ids.length > 0) this.byAddress.set(entry.address, ids);
    else this.byAddress.delete(entry.address);
    if (entry.expires <= this.now()) return false;
    return entry.code.toLowerCase() === answer.trim().toLowerCase();
  }

  private live(id: string, now: number): boolean {
    const e = this.pending.get(id);
    if (e && e.expires > now) return true;
    this.pending.delete(id);
    return false;
  }

  private dropLeastRecentAddress(): void {
    const [address, ids] = this.byAddress.entries().next().value ?? [];
    if (address === undefined || ids === undefined) return;
    for (const id of ids) this.pending.delete(id);
    this.byAddress.delete(address);
  }
}
