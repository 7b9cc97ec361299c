/** What the proxy calls itself to pools when neither the operator (setting.ra) nor the miner says. */
export const PROXY_AGENT = "pithead/0.1";
