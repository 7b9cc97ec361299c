import { randomInt } from "node:crypto";
import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AdminStore } from "../store/admin.ts";
import type { MachineTokens } from "./machine-tokens.ts";

export const ADMIN_USERNAME = "admin";
export const INITIAL_PASSWORD_FILE = "initial-password";
const PASSWORD_ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function randomPassword(length = 16): string {
  let out = "";
  for (let i = 0; i < length; i++) out += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return out;
}

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id" });
}

/**
 * The single admin account. There is no fixed default password: a random one is made at first start
 * (or on reset), written to DATA/initial-password (0600) and flagged as default until changed.
 */
export class AccountService {
  constructor(
    private readonly store: AdminStore,
    private readonly dataDir: string,
    private readonly machines: MachineTokens,
  ) {}

  /** Creates the account on first start; returns the new password, or null if one already exists. */
  async ensure(): Promise<string | null> {
    if (this.store.get()) return null;
    return this.resetPassword();
  }

  /**
   * Sets a new random password (keeping the username), revokes every session and machine token,
   * returns the password.
   */
  async resetPassword(): Promise<string> {
    const password = randomPassword();
    const username = this.store.get()?.username ?? ADMIN_USERNAME;
    this.store.set(username, await hashPassword(password), true);
    this.store.revokeAllTokens();
    this.machines.rotateAll();
    const file = join(this.dataDir, INITIAL_PASSWORD_FILE);
    writeFileSync(file, `${password}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    return password;
  }

  async verify(username: string, password: string): Promise<boolean> {
    const admin = this.store.get();
    if (!admin) return false;
    // Always run the hash check so a wrong username costs the same time as a wrong password.
    const ok = await Bun.password.verify(password, admin.password_hash);
    return ok && admin.username === username;
  }

  async verifyPassword(password: string): Promise<boolean> {
    const admin = this.store.get();
    return admin !== null && (await Bun.password.verify(password, admin.password_hash));
  }

  username(): string {
    return this.store.get()?.username ?? ADMIN_USERNAME;
  }

  isDefaultPassword(): boolean {
    return this.store.get()?.default_password === 1;
  }

  async change(username: string, password: string): Promise<void> {
    this.store.set(username, await hashPassword(password), false);
    this.store.revokeAllTokens();
    this.machines.rotateAll();
    rmSync(join(this.dataDir, INITIAL_PASSWORD_FILE), { force: true });
  }
}
