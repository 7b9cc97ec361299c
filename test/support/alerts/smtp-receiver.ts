/**
 * A small SMTP server for tests, speaking enough to receive: EHLO/HELO, AUTH PLAIN, MAIL, RCPT,
 * DATA, RSET, NOOP, QUIT. It keeps each message with its envelope and login, and decodes what a
 * reader sees (the subject with its RFC 2047 words, the base64 or plain body).
 */
import { createServer, type Server, type Socket } from "node:net";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** "user\0password" from AUTH PLAIN, "" without a login */
  login: string;
  data: string;
  subject: string;
  text: string;
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
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  private constructor() {
    this.server = createServer((socket) => this.session(socket));
  }

  static async start(): Promise<SmtpReceiver> {
    const r = new SmtpReceiver();
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

  private session(socket: Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    const say = (line: string) => socket.write(`${line}\r\n`);
    let buffer = "";
    let inData = false;
    let mail = { from: "", to: [] as string[], login: "" };
    let data: string[] = [];
    say("220 test.local ESMTP");
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let i = buffer.indexOf("\r\n"); i >= 0; i = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            const text = data.join("\r\n");
            this.received.push({ ...mail, data: text, ...decode(text) });
            mail = { from: "", to: [], login: mail.login };
            say("250 queued");
          } else data.push(line.startsWith(".") ? line.slice(1) : line);
          continue;
        }
        const verb = line.split(" ")[0]?.toUpperCase() ?? "";
        if (verb === "EHLO") {
          say("250-test.local");
          say("250-AUTH PLAIN");
          say("250 8BITMIME");
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
      }
    });
  }
}
