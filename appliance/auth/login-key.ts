import { constants, generateKeyPairSync, privateDecrypt } from "node:crypto";
import type { SettingsStore } from "../store/settings.ts";

const KEY = "login_rsa";

interface KeyPair {
  publicPem: string;
  privatePem: string;
}

/**
 * The RSA key pair the browser encrypts the login password with (a LAN page over plain HTTP has no
 * WebCrypto, so the console uses RSA-OAEP in JavaScript). Made once at first start.
 */
export class LoginKey {
  private readonly pair: KeyPair;

  constructor(settings: SettingsStore) {
    let pair = settings.get<KeyPair | null>(KEY, null);
    if (!pair) {
      const { publicKey, privateKey } = generateKeyPairSync("rsa", {
        modulusLength: 2048,
        publicKeyEncoding: { type: "spki", format: "pem" },
        privateKeyEncoding: { type: "pkcs8", format: "pem" },
      });
      pair = { publicPem: publicKey, privatePem: privateKey };
      settings.set(KEY, pair);
    }
    this.pair = pair;
  }

  get publicPem(): string {
    return this.pair.publicPem;
  }

  /** Decrypts base64 RSA-OAEP (SHA-256) ciphertext; null if it is not a valid ciphertext for our key. */
  private decrypt(base64: string): string | null {
    try {
      const plain = privateDecrypt(
        { key: this.pair.privatePem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
        Buffer.from(base64, "base64"),
      );
      return plain.toString("utf8");
    } catch {
      return null;
    }
  }

  /**
   * The console seals every password as "nonce:password" (the nonce is the captcha id for a login, a
   * single-use challenge otherwise), so a ciphertext seen on the wire cannot be sent again under a new
   * nonce. Null when it does not decrypt or carries no nonce; checking the nonce is the caller's job.
   */
  unseal(base64: string): { nonce: string; secret: string } | null {
    const plain = this.decrypt(base64);
    const colon = plain?.indexOf(":") ?? -1;
    if (plain == null || colon < 1) return null;
    return { nonce: plain.slice(0, colon), secret: plain.slice(colon + 1) };
  }
}
