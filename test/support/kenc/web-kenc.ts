/**
 * A second KENC implementation for tests, written from docs/kenc.md with WebCrypto only (no
 * node:crypto, nothing of the appliance): when the port and this client agree, the framing is the
 * documented one, not merely the port's own.
 */
import type { Socket } from "bun";

const MAGIC = [0x50, 0x4b, 0x4e, 0x43];
/** 2 counts the nonce at both ends; 1 (earlier clients) sends it in each frame */
export const KENC_VERSION = 2;
const SALT: Bytes = new TextEncoder().encode("pithead-kenc-v1");
const C2S = 1;
const S2C = 2;
const MAX_PLAIN = 16384;

/** WebCrypto takes views of a plain ArrayBuffer: every buffer here is a fresh copy */
type Bytes = Uint8Array<ArrayBuffer>;

export const concat = (...parts: Uint8Array[]): Bytes => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

export const hello = (random: Uint8Array, version = KENC_VERSION): Uint8Array =>
  concat(Uint8Array.from(MAGIC), Uint8Array.of(version), random);

/** bytes before a frame's ciphertext: the length, and in version 1 the nonce */
export const frameHeader = (version: number): number => (version === 1 ? 14 : 2);

/**
 * HKDF-SHA256 of the key's UTF-8 with the documented salt (KENC's, or the RMS tunnel's) and info,
 * imported as an AES-256-GCM key.
 */
export async function webDeriveKey(
  kencKey: string,
  label: "c2s" | "s2c",
  clientRandom: Uint8Array,
  serverRandom: Uint8Array,
  salt: Bytes = SALT,
): Promise<{ raw: Uint8Array; key: CryptoKey }> {
  const ikm = await crypto.subtle.importKey("raw", new TextEncoder().encode(kencKey), "HKDF", false, [
    "deriveBits",
  ]);
  const info = concat(new TextEncoder().encode(label), clientRandom, serverRandom);
  const raw = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, ikm, 256),
  );
  const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
  return { raw, key };
}

const nonceOf = (direction: number, counter: number): Bytes => {
  const n = new Uint8Array(12);
  const v = new DataView(n.buffer);
  v.setUint32(0, direction);
  v.setBigUint64(4, BigInt(counter));
  return n;
};

/**
 * One frame: length ‖ (version 1: nonce) ‖ AES-256-GCM(ciphertext ‖ tag), the nonce direction ‖
 * counter, the length as additional data.
 */
export async function webSeal(
  key: CryptoKey,
  direction: number,
  counter: number,
  plain: Bytes,
  version = KENC_VERSION,
): Promise<Uint8Array> {
  const length = Uint8Array.of(plain.length >> 8, plain.length & 0xff);
  const nonce = nonceOf(direction, counter);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv: nonce, additionalData: length, tagLength: 128 },
      key,
      plain,
    ),
  );
  return version === 1 ? concat(length, nonce, sealed) : concat(length, sealed);
}

/**
 * A KENC connection to a port: `frame` seals the next client→server frame without sending it (the
 * hostile tests replay, reorder and cut frames), `send` writes bytes as they are, `write` seals and
 * sends in order; what the port answers is opened in order into `received`.
 */
export class WebKencClient {
  received = "";
  closed = false;
  /** the server's frames did not open: wrong key, or the port's framing is not the documented one */
  broken: string | null = null;
  private counter = 0;
  private inCounter = 0;
  private pending: Bytes = new Uint8Array(0);
  /** WebCrypto answers asynchronously: one chain keeps frames in order both ways */
  private chain: Promise<unknown> = Promise.resolve();
  private onPlain: (b: Uint8Array) => void = (b) => {
    this.received += new TextDecoder().decode(b);
  };

  private constructor(
    private readonly socket: Socket<undefined>,
    private readonly c2s: CryptoKey,
    private readonly s2c: CryptoKey,
    readonly version: number,
  ) {}

  static async connect(
    port: number,
    kencKey: string,
    salt: Bytes = SALT,
    version = KENC_VERSION,
  ): Promise<WebKencClient> {
    const clientRandom = crypto.getRandomValues(new Uint8Array(32));
    let early: Bytes = new Uint8Array(0);
    let sink: ((d: Uint8Array) => void) | null = null;
    let closed = false;
    let client: WebKencClient | null = null;
    let gotHello: (random: Uint8Array) => void = () => {};
    const serverHelloBytes = new Promise<Uint8Array>((resolve) => {
      gotHello = resolve;
    });
    const socket = await Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        data: (_s, d) => {
          if (sink) {
            sink(new Uint8Array(d));
            return;
          }
          early = concat(early, new Uint8Array(d));
          if (early.length >= 37) gotHello(early.slice(0, 37));
        },
        close: () => {
          closed = true;
          if (client) client.closed = true;
        },
      },
    });
    socket.write(hello(clientRandom, version));
    const serverHello = await Promise.race([
      serverHelloBytes,
      (async () => {
        while (!closed) await Bun.sleep(10);
        throw new Error("the port closed before its hello");
      })(),
    ]);
    // the port answers in the client's version
    if (serverHello[4] !== version) throw new Error(`the port answered KENC version ${serverHello[4]}`);
    const serverRandom = serverHello.slice(5);
    const c2s = await webDeriveKey(kencKey, "c2s", clientRandom, serverRandom, salt);
    const s2c = await webDeriveKey(kencKey, "s2c", clientRandom, serverRandom, salt);
    client = new WebKencClient(socket, c2s.key, s2c.key, version);
    const c = client;
    c.closed = closed;
    sink = (d) => c.fromPort(d);
    const rest = early.subarray(37);
    if (rest.length > 0) c.fromPort(rest);
    return c;
  }

  /** Plaintext from the port goes to `fn` (in order) instead of `received`. */
  onData(fn: (b: Uint8Array) => void): void {
    this.onPlain = fn;
  }

  async frame(plain: string | Uint8Array): Promise<Uint8Array> {
    const bytes = typeof plain === "string" ? new TextEncoder().encode(plain) : new Uint8Array(plain);
    return webSeal(this.c2s, C2S, this.counter++, bytes, this.version);
  }

  send(bytes: Uint8Array): void {
    this.socket.write(bytes);
  }

  /** Seals and sends, in the order of the calls. */
  write(plain: Uint8Array): void {
    const parts: Uint8Array[] = [];
    for (let at = 0; at < plain.length; at += MAX_PLAIN) parts.push(plain.slice(at, at + MAX_PLAIN));
    for (const p of parts) {
      const sealed = this.frame(p);
      this.chain = this.chain.then(async () => this.send(await sealed));
    }
  }

  end(): void {
    this.chain = this.chain.then(() => this.socket.end());
  }

  private fromPort(d: Uint8Array): void {
    this.pending = concat(this.pending, d);
    while (this.pending.length >= 2) {
      const length = (this.pending[0] as number) * 256 + (this.pending[1] as number);
      const header = frameHeader(this.version);
      const total = header + length + 16;
      if (this.pending.length < total) return;
      const frame = this.pending.slice(0, total);
      this.pending = this.pending.slice(total);
      const nonce = nonceOf(S2C, this.inCounter++);
      this.chain = this.chain.then(async () => {
        if (this.broken !== null) return;
        if (header > 2 && frame.subarray(2, header).some((b, i) => b !== nonce[i])) {
          this.broken = "server frame out of order";
          return;
        }
        try {
          const plain = await crypto.subtle.decrypt(
            { name: "AES-GCM", iv: nonce, additionalData: frame.subarray(0, 2), tagLength: 128 },
            this.s2c,
            frame.subarray(header),
          );
          this.onPlain(new Uint8Array(plain));
        } catch {
          this.broken = "server frame does not authenticate";
        }
      });
    }
  }
}

/**
 * What a farm-side client does for plain miners: a local port whose every connection is carried to
 * the KENC port over its own KENC connection. Returns the local port and a stop function.
 */
export function throughKenc(kencPort: number, kencKey: string): { port: number; stop: () => void } {
  const relay = Bun.listen<{ up: WebKencClient | null; early: Uint8Array[]; gone: boolean }>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open: (s) => {
        s.data = { up: null, early: [], gone: false };
        WebKencClient.connect(kencPort, kencKey).then(
          (up) => {
            if (s.data.gone) {
              up.end();
              return;
            }
            s.data.up = up;
            up.onData((b) => s.write(b));
            for (const b of s.data.early) up.write(b);
            s.data.early = [];
            const watch = setInterval(() => {
              if (up.closed || up.broken !== null) {
                clearInterval(watch);
                s.end();
              }
            }, 20);
          },
          () => s.end(),
        );
      },
      data: (s, chunk) => {
        if (s.data.up) s.data.up.write(new Uint8Array(chunk));
        else s.data.early.push(new Uint8Array(chunk));
      },
      close: (s) => {
        s.data.gone = true;
        s.data.up?.end();
      },
    },
  });
  return { port: relay.port, stop: () => relay.stop(true) };
}
