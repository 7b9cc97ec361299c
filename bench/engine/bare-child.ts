/**
 * Baseline for the memory benchmark: a bare Bun socket server holding a small state object per
 * connection and nothing else, speaking just enough stratum (a subscribe answer and one job) that
 * the load generator counts its miners as connected.
 */
export {};

const server = Bun.listen<{ n: number }>({
  hostname: "127.0.0.1",
  port: 0,
  socket: {
    open: (s) => {
      s.data = { n: 0 };
    },
    data: (s) => {
      if (s.data.n++ > 0) return;
      s.write(
        '{"id":1,"result":[[],"00",3],"error":null}\n{"id":null,"method":"mining.notify","params":["1","","","",[],"","","00000000",true]}\n',
      );
    },
  },
});
process.stdout.write(`READY ${server.port}\n`);
const decoder = new TextDecoder();
for await (const chunk of Bun.stdin.stream()) {
  for (const cmd of decoder.decode(chunk).split("\n")) {
    if (cmd === "mem") {
      Bun.gc(true);
      const m = process.memoryUsage();
      process.stdout.write(`MEM ${m.rss} ${m.heapUsed}\n`);
    } else if (cmd === "exit") process.exit(0);
  }
}
