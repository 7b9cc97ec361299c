/**
 * What one tunnel record's compression call costs (docs/benchmarks.md, "RMS tunnel"): 20,000
 * one-shot calls on one share line with the link's 32-KiB dictionary, as records.ts makes them,
 * timed one by one; the RSS the calls leave behind for the collector.
 * Usage: bun bench/tunnel/codec-calls.ts [zstd-compress|zstd-decompress|deflate|inflate]
 */
import { deflateRawSync, inflateRawSync, zstdCompressSync, zstdDecompressSync } from "node:zlib";
import { percentile } from "../engine/fake-miner.ts";

const CALLS = 20_000;
const line = Buffer.from(
  '{"id":1000,"method":"mining.submit","params":["wal.lat","1a2b","0000002a","5f5e1000","000003e8"]}\n',
);
const dictionary = Buffer.alloc(32 * 1024);
for (let i = 0; i < dictionary.length; i += line.length) line.copy(dictionary, i);
const zstd = zstdCompressSync(line, { dictionary });
const deflated = deflateRawSync(line, { dictionary });
const calls = {
  "zstd-compress": () => zstdCompressSync(line, { dictionary }),
  "zstd-decompress": () => zstdDecompressSync(zstd, { dictionary }),
  deflate: () => deflateRawSync(line, { dictionary }),
  inflate: () => inflateRawSync(deflated, { dictionary }),
};
const which = (process.argv[2] ?? "zstd-decompress") as keyof typeof calls;
const call = calls[which];
if (call === undefined) throw new Error(`one of ${Object.keys(calls).join(", ")}`);
const rss = process.memoryUsage().rss;
const times: number[] = [];
for (let i = 0; i < CALLS; i++) {
  const t0 = performance.now();
  call();
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const us = (p: number) => (percentile(times, p) * 1000).toFixed(0);
console.log(
  `${which}: p50 ${us(50)} µs, p99 ${us(99)} µs, p99.9 ${us(99.9)} µs; RSS +${((process.memoryUsage().rss - rss) / 1e6).toFixed(1)} MB after ${CALLS} calls`,
);
