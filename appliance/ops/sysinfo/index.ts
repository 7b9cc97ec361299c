/** System readings from /proc and statfs (spec §7 GET /api/sysinfo): one sampler per server. */
export { type CpuTimes, cpuUsagePercent, parseProcStat } from "./cpu.ts";
export { type DiskInfo, diskFromStatfs, readDisk } from "./disk.ts";
export { type HostInfo, type ProcessInfo, parseUptime, readHost, readProcess } from "./host.ts";
export { type LoadInfo, parseLoadavg } from "./load.ts";
export { type MemoryInfo, parseMeminfo } from "./memory.ts";
export { byteRate, type InterfaceCounters, parseNetDev, sumCounters } from "./network.ts";
export { type NetworkInfo, type SamplerOptions, SysinfoSampler, type SystemInfo } from "./sampler.ts";
