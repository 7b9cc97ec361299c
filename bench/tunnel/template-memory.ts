/**
 * What RMS3's compact lines keep per stream (docs/rms-tunnel.md, "Compact lines"): the live heap of
 * a stream's line templates after a few shares one way and their answers and a difficulty the other,
 * per end: the farm client encodes shares and decodes answers, the port the reverse. Each figure is
 * the JavaScript heap's growth over a batch of streams after a forced collection, three batches.
 * Usage: bun bench/tunnel/template-memory.ts [streams per batch=20000]
 */
import { heapStats } from "bun:jsc";
import { LineDecoder, LineEncoder } from "../../appliance/engine/transport/tunnel/line-codec.ts";

const N = Number(process.argv[2] ?? 20_000);
const share = (m: number, k: number) =>
  `{"params":["wal.rig${m}","1${k}","0000002${k}","6553f2d${k}","9e1c33a${k}"],"id":${100 + k},"method":"mining.submit"}\n`;
const answer = (k: number) => `{"id":${100 + k},"result":true,"error":null}\n`;
const DIFFICULTY = '{"id":null,"method":"mining.set_difficulty","params":[65536]}\n';

/** One stream's templates at one end: its own lines encoded, the peer's decoded. */
function stream(m: number, end: "client" | "port"): [LineEncoder, LineDecoder] {
  const encoder = new LineEncoder();
  const decoder = new LineDecoder();
  const peer = new LineEncoder();
  const ours = (k: number) =>
    end === "client" ? [share(m, k)] : [answer(k), ...(k === 0 ? [DIFFICULTY] : [])];
  const theirs = (k: number) =>
    end === "client" ? [answer(k), ...(k === 0 ? [DIFFICULTY] : [])] : [share(m, k)];
  for (let k = 0; k < 3; k++) {
    for (const line of ours(k)) encoder.encode(Buffer.from(line));
    for (const line of theirs(k))
      for (const part of peer.encode(Buffer.from(line)))
        if (part instanceof Uint8Array) continue;
        else if (part.fields !== undefined) decoder.fields(part.slot, part.fields);
        else decoder.line(part.slot, part.line);
  }
  return [encoder, decoder];
}

const kept: unknown[] = [];
for (const end of ["client", "port"] as const) {
  const perStream: number[] = [];
  for (let batch = 0; batch < 4; batch++) {
    Bun.gc(true);
    const before = heapStats().heapSize;
    for (let m = 0; m < N; m++) kept.push(stream(m, end));
    Bun.gc(true);
    // the first batch also warms the code and the shared shapes' table
    if (batch > 0) perStream.push((heapStats().heapSize - before) / N);
  }
  console.log(
    `${end}: ${perStream.map((b) => b.toFixed(0)).join(", ")} bytes of templates per stream (${N.toLocaleString("en")} streams a batch)`,
  );
}
