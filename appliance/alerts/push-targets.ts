/**
 * Everything delivery may push to: the channels of channel-settings.ts and ServerChan, whose key
 * and address are kept among the rules (spec §3 lists the push key with the offline-alert
 * settings, and older versions stored it there). ServerChan is on while a key is set.
 */
import type { SettingsStore } from "../store/settings.ts";
import { type Channels, readChannels } from "./channel-settings.ts";
import { readAlertRules } from "./rule-settings.ts";

export interface ServerChan {
  enabled: boolean;
  /** "" = the service itself */
  base_url: string;
  /** the SendKey */
  key: string;
}

export interface PushTargets extends Channels {
  serverchan: ServerChan;
}

export type ChannelName = keyof PushTargets;
export const CHANNEL_NAMES: ChannelName[] = ["webhook", "telegram", "email", "serverchan"];

export function readTargets(settings: SettingsStore): PushTargets {
  const rules = readAlertRules(settings);
  return {
    ...readChannels(settings),
    serverchan: { enabled: rules.push_key !== "", base_url: rules.push_url, key: rules.push_key },
  };
}
