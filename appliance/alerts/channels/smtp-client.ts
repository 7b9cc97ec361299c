/**
 * A small SMTP client on node:net and node:tls, enough to hand one message to the operator's mail
 * server: EHLO, STARTTLS when asked (or TLS from the start on port 465), AUTH PLAIN when a user is
 * set, MAIL, RCPT, DATA with dot-stuffing, QUIT. A TLS server must be trusted before anything is
 * written to it: by its pinned certificate when the operator set one, else by the CAs and its name.
 */
import { isIP, connect as netConnect, type Socket } from "node:net";
import { type TLSSocket, connect as tlsConnect } from "node:tls";

export interface SmtpOptions {
  host: string;
  port: number;
  starttls: boolean;
  /** SHA-256 fingerprint of the one certificate to trust (a LAN relay's self-signed one); "" = the CAs */
  fingerprint: string;
  user: string;
  password: string;
  from: string;
  to: string[];
  timeoutMs: number;
}

interface Reply {
  code: number;
  lines: string[];
}

/** SMTP replies read off one socket, multi-line ones ("250-…", "250 …") joined. */
class Replies {
  private buffer = "";
  private readonly lines: string[] = [];
  private wake: (() => void) | null = null;
  private failure: Error | null = null;

  constructor(socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer += chunk.toString("utf8");
      for (let i = this.buffer.indexOf("\n"); i >= 0; i = this.buffer.indexOf("\n")) {
        this.lines.push(this.buffer.slice(0, i).replace(/\r$/, ""));
        this.buffer = this.buffer.slice(i + 1);
      }
      this.wake?.();
    });
    socket.on("error", (e: Error) => this.fail(e));
    socket.on("close", () => this.fail(new Error("the mail server closed the connection")));
  }

  fail(e: Error): void {
    this.failure ??= e;
    this.wake?.();
  }

  async next(): Promise<Reply> {
    const lines: string[] = [];
    for (;;) {
      while (this.lines.length === 0) {
        if (this.failure) throw this.failure;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = null;
      }
      const line = this.lines.shift() as string;
      lines.push(line.slice(4));
      if (line[3] !== "-") return { code: Number(line.slice(0, 3)), lines };
    }
  }
}

/**
 * Waits for the TLS handshake and decides trust before a byte is written on the socket. Both ways
 * name the certificate presented, so that the operator can compare it with the relay's own before
 * pinning it.
 */
function trusted(socket: TLSSocket, pin: string): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once("error", reject);
    socket.once("close", () => reject(new Error("the mail server closed the connection")));
    socket.once("secureConnect", () => {
      const presented = socket.getPeerCertificate().fingerprint256 ?? "";
      if (pin !== "" ? presented === pin : socket.authorized) resolve();
      else if (pin !== "") {
        reject(new Error(`the mail server presented certificate ${presented}, not the pinned one`));
      } else {
        const why = String(socket.authorizationError);
        reject(new Error(`the mail server's certificate is not trusted (${why}); it presented ${presented}`));
      }
    });
  });
}

/** A line of the message that starts with "." gets another one (RFC 5321 §4.5.2). */
const dotStuffed = (data: string): string => data.replace(/(^|\r\n)\./g, "$1..");

export async function sendMail(o: SmtpOptions, data: string): Promise<void> {
  const servername = isIP(o.host) === 0 ? o.host : undefined;
  // the runtime only reports what it thinks of the certificate; `trusted` decides
  const secure = (over: { socket: Socket } | { host: string; port: number }): TLSSocket =>
    tlsConnect({ ...over, servername, rejectUnauthorized: false });
  // port 465 is TLS from the first byte
  const implicit = o.port === 465 ? secure({ host: o.host, port: o.port }) : null;
  let socket: Socket = implicit ?? netConnect({ host: o.host, port: o.port });
  let replies = new Replies(socket);
  const timer = setTimeout(() => {
    const late = new Error("the mail server did not answer in time");
    replies.fail(late);
    socket.destroy(late);
  }, o.timeoutMs);
  const expect = async (command: string | null, ...codes: number[]): Promise<Reply> => {
    if (command !== null) socket.write(`${command}\r\n`);
    const r = await replies.next();
    if (!codes.includes(r.code)) {
      const what = command === null ? "greeting" : (command.split(" ")[0] as string);
      throw new Error(`mail server refused ${what}: ${r.code} ${r.lines.join(" ")}`);
    }
    return r;
  };
  try {
    if (implicit) await trusted(implicit, o.fingerprint);
    await expect(null, 220);
    const ehlo = await expect("EHLO pithead", 250);
    if (o.starttls && !implicit) {
      if (!ehlo.lines.some((l) => /^STARTTLS\b/i.test(l))) {
        throw new Error("the mail server does not offer STARTTLS");
      }
      await expect("STARTTLS", 220);
      socket.removeAllListeners("data");
      const tls = secure({ socket });
      socket = tls;
      replies = new Replies(tls);
      await trusted(tls, o.fingerprint);
      await expect("EHLO pithead", 250);
    }
    if (o.user !== "") {
      const plain = Buffer.from(`\0${o.user}\0${o.password}`, "utf8").toString("base64");
      await expect(`AUTH PLAIN ${plain}`, 235);
    }
    await expect(`MAIL FROM:<${o.from}>`, 250);
    for (const to of o.to) await expect(`RCPT TO:<${to}>`, 250, 251);
    await expect("DATA", 354);
    socket.write(`${dotStuffed(data)}\r\n.\r\n`);
    await expect(null, 250);
    await expect("QUIT", 221).catch(() => undefined);
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}
