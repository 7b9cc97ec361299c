/**
 * Worker thread entry: draws captcha images. Rasterising one takes 1.5–7 ms of CPU, which a flood
 * of captcha requests from anyone would otherwise take from the event loop the miners' shares run
 * on (bench/api/hostile-latency.ts). appliance/workers.ts makes it an entry of its own in every build.
 */
import { serveWorker } from "../workers.ts";
import { renderCaptcha } from "./captcha-image.ts";

serveWorker<string, string>(renderCaptcha);
