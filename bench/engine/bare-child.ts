/**
 * Baselines for the memory benchmark: what Bun itself costs per connection, against which the
 * proxy's memory per miner is read.
 * - server: a bare Bun socket server that speaks just enough stratum for the load generator's
 *   miners to connect and mine (a subscribe answer, one job, every other request answered true),
 *   so that its sockets carry the same kind of traffic as the proxy's;
 * - relay (argv[3] is a pool's host:port): each miner's lines go to a connection of its own to
 *   the pool and back, the two sockets a miner holds in Efficient mode and nothing else.
 * argv[2] is bytes of JavaScript state to hold per connection, allocated when it opens and never
 * thrown away, so that a baseline can hold the proxy's live heap without the proxy's garbage.
 */
import type { Socket } from "bun";

const decoder = new TextDecoder();
const JOB =
  '{"id":null,"method":"mining.set_difficulty","params":[1]}\n' +
  `{"id":null,"method":"mining.notify","params":["1","${"ab".repeat(32)}","${"01".repeat(50)}","${"02".repeat(40)}",["${"cd".repeat(32)}"],"20000000","1d00ffff","6553f2d0",true]}\n`;
const ID = /"id":(\d+)/;

/** Twelve fields, a 112-byte cell (a size class proxy objects take), chained without an array. */
class Cell {
  a = 0;
  b = 0;
  c = 0;
  d = 0;
  e = 0;
  f = 0;
  g = 0;
  h = 0;
  i = 0;
  j = 0;
  k = 0;
  constructor(readonly next: Cell | null) {}
}
const CELL_BYTES = 112;
const cells = Math.round(Number(process.argv[2] ?? 0) / CELL_BYTES);
function state(): Cell | null {
  let head: Cell | null = null;
  for (let i = 0; i < cells; i++) head = new Cell(head);
  return head;
}

interface Conn {
  lines: number;
  state: Cell | null;
  /** relay: the connection to the pool, and what the miner sent before it opened */
  pool: Socket<null> | null;
  early: Uint8Array[];
}

const [relayHost, relayPort] = process.argv[3]?.split(":") ?? [];

function answer(s: { data: Conn; write(data: string): number }, chunk: Uint8Array): void {
  let out = "";
  for (const line of decoder.decode(chunk).split("\n")) {
    const id = ID.exec(line)?.[1];
    if (id === undefined) continue;
    s.data.lines++;
    if (id === "1") out += '{"id":1,"result":[[],"00",3],"error":null}\n';
    else out += `{"id":${id},"result":true,"error":null}\n`;
    if (id === "2") out += JOB;
  }
  if (out !== "") s.write(out);
}

const server = Bun.listen<Conn>({
  hostname: "127.0.0.1",
  port: 0,
  socket: {
    open: (s) => {
      s.data = { lines: 0, state: state(), pool: null, early: [] };
      if (relayHost === undefined) return;
      void Bun.connect<null>({
        hostname: relayHost,
        port: Number(relayPort),
        socket: {
          data: (_p, chunk) => void s.write(chunk),
          close: () => void s.end(),
        },
      }).then((p) => {
        s.data.pool = p;
        for (const c of s.data.early) p.write(c);
        s.data.early = [];
      });
    },
    data: (s, chunk) => {
      if (relayHost === undefined) answer(s, chunk);
      else if (s.data.pool !== null) s.data.pool.write(chunk);
      else s.data.early.push(chunk.slice());
    },
    close: (s) => void s.data.pool?.end(),
  },
});
process.stdout.write(`READY ${server.port}\n`);
for await (const chunk of Bun.stdin.stream()) {
  for (const cmd of decoder.decode(chunk).split("\n")) {
    if (cmd === "mem") {
      Bun.gc(true);
      const m = process.memoryUsage();
      process.stdout.write(`MEM ${m.rss} ${m.heapUsed}\n`);
    } else if (cmd === "exit") process.exit(0);
  }
}
