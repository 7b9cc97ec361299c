declare module "locale:*" {
  import type { Messages } from "@lingui/core";

  const messages: Messages;
  export default messages;
}
declare module "*.css" {
  const css: string;
  export default css;
}
declare module "node-forge/lib/*" {
  const value: unknown;
  export default value;
}
