/**
 * A small SMTP client on node:net and node:tls, enough to hand one message to the operator's mail
 * server: EHLO, STARTTLS when asked (or TLS from the start on port 465), AUTH PLAIN when a user is
 * set, MAIL, RCPT, DATA with dot-stuffing, QUIT. The certificate of a TLS server is verified.
 */
import { isIP, connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";

export interface SmtpOptions {
  host: string;
  port: number;
  starttls: boolean;
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

/** A line of the message that starts with "." gets another one (RFC 5321 §4.5.2). */
const dotStuffed = (data: string): string => data.replace(/(^|\r\n)\./g, "$1..");

export async function sendMail(o: SmtpOptions, data: string): Promise<void> {
  const servername = isIP(o.host) === 0 ? o.host : undefined;
  let socket: Socket =
    o.port === 465
      ? tlsConnect({ host: o.host, port: o.port, servername })
      : netConnect({ host: o.host, port: o.port });
  let replies = new Replies(socket);
  const timer = setTimeout(() => {
    replies.fail(new Error("the mail server did not answer in time"));
    socket.destroy();
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
    await expect(null, 220);
    const ehlo = await expect("EHLO pithead", 250);
    if (o.starttls && o.port !== 465) {
      if (!ehlo.lines.some((l) => /^STARTTLS\b/i.test(l))) {
        throw new Error("the mail server does not offer STARTTLS");
      }
      await expect("STARTTLS", 220);
      socket.removeAllListeners("data");
      socket = tlsConnect({ socket, servername });
      replies = new Replies(socket);
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
