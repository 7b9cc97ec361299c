/**
 * A small SMTP server for tests, speaking enough to receive: EHLO/HELO, STARTTLS (when started with a
 * certificate), AUTH PLAIN, MAIL, RCPT, DATA, RSET, NOOP, QUIT. It keeps each message with its
 * envelope and login, decodes what a reader sees (the subject with its RFC 2047 words, the base64 or
 * plain body), and logs every command with whether it came over TLS, so that a test can show what a
 * client said in clear.
 */
import { createServer, type Server, type Socket } from "node:net";
import { createSecureContext, type SecureContext, TLSSocket } from "node:tls";
import type { CertAndKey } from "../../../appliance/ops/certificate.ts";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** "user\0password" from AUTH PLAIN, "" without a login */
  login: string;
  /** the message came over TLS */
  tls: boolean;
  data: string;
  subject: string;
  text: string;
}

export interface SmtpCommand {
  line: string;
  tls: boolean;
}

function header(data: string, name: string): string {
  const head = data.split("\r\n\r\n")[0] ?? "";
  const line = head.split("\r\n").find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line === undefined ? "" : line.slice(name.length + 1).trim();
}

const decodeWords = (s: string): string =>
  s.replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_, b64: string) => Buffer.from(b64, "base64").toString("utf8"));

function decode(data: string): { subject: string; text: string } {
  const body = data.slice(data.indexOf("\r\n\r\n") + 4);
  const base64 = header(data, "Content-Transfer-Encoding").toLowerCase() === "base64";
  return {
    subject: decodeWords(header(data, "Subject")),
    text: base64 ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8") : body,
  };
}

export class SmtpReceiver {
  readonly received: ReceivedMail[] = [];
  /** every command line of every session, in order */
  readonly commands: SmtpCommand[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  /** `tls`: offer STARTTLS and upgrade with this certificate */
  private constructor(private readonly tls: SecureContext | null) {
    this.server = createServer((socket) => this.session(socket));
  }

  static async start(tls?: CertAndKey): Promise<SmtpReceiver> {
    const r = new SmtpReceiver(tls ? createSecureContext({ cert: tls.cert, key: tls.key }) : null);
    await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
    return r;
  }

  get port(): number {
    const a = this.server.address();
    return typeof a === "object" && a !== null ? a.port : 0;
  }

  stop(): void {
    for (const s of this.sockets) s.destroy();
    this.server.close();
  }

  private session(plain: Socket): void {
    this.sockets.add(plain);
    plain.on("close", () => this.sockets.delete(plain));
    plain.on("error", () => plain.destroy());
    let socket: Socket = plain;
    let secure = false;
    const say = (line: string) => socket.write(`${line}\r\n`);
    let buffer = "";
    let inData = false;
    let mail = { from: "", to: [] as string[], login: "" };
    let data: string[] = [];
    const upgrade = (context: SecureContext) => {
      plain.removeListener("data", onData);
      // what the client sent after STARTTLS in the same packet is not to be trusted (RFC 3207 §4.2)
      buffer = "";
      socket = new TLSSocket(plain, { isServer: true, secureContext: context });
      socket.on("error", () => plain.destroy());
      socket.on("data", onData);
      secure = true;
    };
    const command = (line: string) => {
      this.commands.push({ line, tls: secure });
      const verb = line.split(" ")[0]?.toUpperCase() ?? "";
      if (verb === "EHLO") {
        say("250-test.local");
        if (this.tls && !secure) say("250-STARTTLS");
        say("250-AUTH PLAIN");
        say("250 8BITMIME");
      } else if (verb === "STARTTLS" && this.tls && !secure) {
        say("220 ready to start TLS");
        upgrade(this.tls);
      } else if (verb === "HELO" || verb === "NOOP" || verb === "RSET") say("250 ok");
      else if (verb === "AUTH") {
        mail.login = Buffer.from(line.split(" ")[2] ?? "", "base64")
          .toString("utf8")
          .slice(1);
        say("235 accepted");
      } else if (verb === "MAIL") {
        mail.from = /<([^>]*)>/.exec(line)?.[1] ?? "";
        say("250 ok");
      } else if (verb === "RCPT") {
        mail.to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
        say("250 ok");
      } else if (verb === "DATA") {
        inData = true;
        data = [];
        say("354 end with .");
      } else if (verb === "QUIT") {
        say("221 bye");
        socket.end();
      } else say("502 not implemented");
    };
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let i = buffer.indexOf("\r\n"); i >= 0; i = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (!inData) {
          command(line);
          continue;
        }
        if (line === ".") {
          inData = false;
          const text = data.join("\r\n");
          this.received.push({ ...mail, tls: secure, data: text, ...decode(text) });
          mail = { from: "", to: [], login: mail.login };
          say("250 queued");
        } else data.push(line.startsWith(".") ? line.slice(1) : line);
      }
    };
    say("220 test.local ESMTP");
    plain.on("data", onData);
  }
}
