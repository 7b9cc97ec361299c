/**
 * Baseline for the memory benchmark: a bare Bun socket server holding a small state object per
 * connection and nothing else. It speaks just enough stratum for the load generator's miners to
 * connect and mine (a subscribe answer, one job, every other request answered true), so that its
 * sockets carry the same kind of traffic as the proxy's.
 */
export {};

const decoder = new TextDecoder();
const JOB =
  '{"id":null,"method":"mining.set_difficulty","params":[1]}\n' +
  `{"id":null,"method":"mining.notify","params":["1","${"ab".repeat(32)}","${"01".repeat(50)}","${"02".repeat(40)}",["${"cd".repeat(32)}"],"20000000","1d00ffff","6553f2d0",true]}\n`;
const ID = /"id":(\d+)/;

const server = Bun.listen<{ lines: number }>({
  hostname: "127.0.0.1",
  port: 0,
  socket: {
    open: (s) => {
      s.data = { lines: 0 };
    },
    data: (s, chunk) => {
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
    },
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
