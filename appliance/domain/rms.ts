/**
 * The RMS settings (spec §3 "Other entities"; Settings → RMS): what a server appliance hands the
 * farm-side tunnel clients of its RMS / RMS2 / RMS3 ports (docs/rms-tunnel.md), and what the engine
 * tells of the tunnels it serves.
 */

/** The stored settings object of GET/POST /api/rms/config. */
export interface RmsSettings {
  /** "" for none; else a tunnel client must present it */
  password: string;
  /** default: every tunnel port on the same number locally; custom: `port_map` */
  port_mode: "default" | "custom";
  port_map: { server: number; local: number }[];
  /** the client's default name */
  client_name: string;
  announcement: string;
  other: string;
  /**
   * ms each end of a tunnel holds its records for more frames (docs/rms-tunnel.md, "Batch window"):
   * a farm's shares then share records, fewer bytes on a metered link for up to this much more
   * latency each way; 0 sends every record at once
   */
  batch_ms: number;
}

export const RMS_SETTING = "rms";

/** the longest batch window, in ms: a share may wait this much each way */
export const MAX_BATCH_MS = 1000;

/**
 * The farm side's own setting, apart from the object above (whose password this appliance asks of
 * its clients): the RMS password it presents to the tunnel ports its RMS2/RMS3 pools reach
 * (GET/POST /api/rms/upstream). One value for all of them, like the KENC key those tunnels share.
 */
export const RMS_UPSTREAM_SETTING = "rms_upstream_password";

export const RMS_DEFAULTS: RmsSettings = {
  password: "",
  port_mode: "default",
  port_map: [],
  client_name: "",
  announcement: "",
  other: "",
  batch_ms: 0,
};

/** One tunnel of a running RMS-family port (GET /api/rms/tunnels). Times in ms since the epoch. */
export interface TunnelView {
  portId: number;
  /** the server port the tunnel reached */
  port: number;
  variant: "RMS" | "RMS2" | "RMS3";
  /** the name the client reports, else the client name the settings hand it */
  name: string;
  /** where the tunnel's link comes from (its last link's, while it waits for a resume) */
  address: string;
  /** false while the link is down and the tunnel waits for its client to resume it */
  connected: boolean;
  streams: number;
  /** tunnel records received and sent, compressed, before KENC's framing (18 bytes per frame more; 30 with a first-version client) */
  linkIn: number;
  linkOut: number;
  /** what the streams carried: client → server and server → client (a broadcast counts per stream) */
  streamIn: number;
  streamOut: number;
  since: number;
  /** the last resume, null if the tunnel never resumed */
  lastResume: number | null;
}
