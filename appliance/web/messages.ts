/**
 * The error and notice catalogue of spec §8 and the rules of §5: a stable key (the console translates
 * it from locales/) and the English text the API sends beside it.
 */
export const MESSAGES = {
  // generic
  "lang.err.fatal": "Fatal error, contact the administrator",
  "lang.err.not_found": "Not found",
  "lang.err.device_missing": "Device data not found, refresh",
  "lang.err.bad_json": "The request body is not valid JSON",
  "lang.err.too_large": "The request body is too large",
  "lang.err.params": "Invalid parameters",
  "lang.err.unauthorized": "Please log in",
  "lang.err.scope":
    "This credential may not call this API (group-control and metrics tokens have one scope each)",
  "lang.err.reauth":
    "This change needs your password again: more than 5 minutes have passed since you last entered it",
  "lang.reauth.err_password": "Wrong password",
  "lang.err.save_port_close": "Save failed because the port could not be closed",
  "lang.err.config_check": "Configuration check failed",
  // login and account (§4, §5, §6)
  "lang.login.err_required": "Please enter the username, password and verification code",
  "lang.login.err_captcha": "Verification failed",
  "lang.login.err_info": "Information verification failed",
  "lang.login.err_password_cipher": "The password could not be decrypted; reload the page and try again",
  "lang.login.err_throttled": "Too many failed logins from this address; try again later",
  "lang.login.err_busy": "The server is busy drawing verification codes; try again in a moment",
  "lang.login.err_throttled_account":
    "Too many failed logins for this account; wait the time given before the next try",
  "lang.user.err_short": "The new password needs at least 8 characters",
  "lang.user.err_mismatch": "The new value and its confirmation do not match",
  "lang.user.err_long":
    "The new password may have at most 128 bytes (128 Latin letters, 42 Chinese characters)",
  "lang.user.err_cipher":
    "The passwords must be sent encrypted by the console with a fresh challenge; reload the page and try again",
  // ports (§5)
  "lang.proxy.err_port": "Please enter the port to be monitored, ranging from 1 to 65534",
  "lang.proxy.err_currency": "Please choose the proxy coin",
  "lang.proxy.err_pool_address": "Please enter the main pool address",
  "lang.proxy.err_unified_wallet": "Pool mode needs a unified wallet",
  "lang.proxy.err_unified_device": "Pool mode needs a unified device name",
  "lang.proxy.err_limit": "Max connections range from 0 to 65535",
  "lang.proxy.err_protocol": "Unknown port protocol",
  "lang.proxy.err_connect_mode": "Unknown pool protocol",
  "lang.proxy.err_mode": "Unknown connection mode",
  "lang.proxy.err_duplicate": "Duplicate port: another proxy already uses this port number",
  "lang.proxy.err_occupied": "Port occupied: another program or the web console already uses this port",
  "lang.proxy.err_coin_unsupported":
    "Creation failed because the coin is not supported in this version, update the program",
  "lang.proxy.err_transport":
    "This transport is not implemented in this version (RMS2/RMS3 fee pools outside the Bitcoin and Equihash families, or the RMS tunnel on the NGINX coin); use TCP or SSL there",
  "lang.proxy.err_socks_auth":
    "SOCKS5 username and password: give both (1 to 255 bytes each) or neither, and only on a SOCKS5 port",
  "lang.proxy.err_family":
    "This coin cannot be proxied yet: its mining protocol is not implemented in this version, so a port for it would not work",
  "lang.proxy.err_mode_unavailable": "This connection mode is not available for this coin",
  "lang.proxy.err_replace_wallet":
    "Replace wallet: both the wallets to replace and the replacement are required",
  "lang.proxy.err_replace_name":
    "Replace miner name: both the names to replace and the replacement are required",
  "lang.proxy.err_open": "Open port failed",
  "lang.proxy.err_close": "Close port failed",
  "lang.proxy.err_delete": "Delete port failed",
  "lang.proxy.err_queuing": "The port is applying a change; wait for it to finish",
  "lang.proxy.err_okminer": "OKMiner optimization is not implemented by this appliance; turn it off",
  "lang.proxy.err_mallob_relay":
    "The Mallob port is not implemented: relay the Mallob endpoint through an NGINX (pure forward) port and leave it empty",
  // fee wallets (§5)
  "lang.wallet.err_total": "The fee wallets of a port add up to more than 100 %",
  "lang.wallet.err_max": "No more than ten wallets",
  "lang.wallet.err_fee_unsupported":
    "Fee diversion is not available for this coin: its pool protocol is relayed as is (pass-through)",
  "lang.wallet.err_min": "At least one wallet config must remain",
  "lang.wallet.err_addr": "Wallet address check failed",
  "lang.wallet.err_device": "Device name check failed",
  "lang.wallet.err_pool": "Pool address check failed",
  "lang.wallet.err_ratio": "The fee percent runs from 0 to 100 in steps of 0.01",
  "lang.ratio.err_set": "Set ratio failed",
  // import (§5)
  "lang.import.err_format": "Unsupported file format: only .json and .xlsx files can be imported",
  "lang.import.err_params": "Invalid parameters",
  "lang.import.err_duplicate": "Duplicate port",
  "lang.import.err_wallet": "Wallet parameter error",
  "lang.import.err_occupied": "Port occupied",
  "lang.import.err_category": "Missing category",
  "lang.import.err_coin": "Unsupported coin, port ignored",
  "lang.import.err_limits": "The file is too large to import: at most 10000 ports, 200 columns and 8 MB",
  // security and web
  "lang.route.err_format":
    "The secure route may contain English letters only: no slashes inside, no ? and no //",
  "lang.route.err_reserved": "This name is used by the console itself: choose another secure route",
  "lang.tls.err_set": "HTTPS state set failed",
  "lang.webport.err_range": "The web port must range from 1 to 65535",
  "lang.kenc.err_empty": "Please enter the encryption key",
  "lang.cert.err_invalid": "Certificate not configured correctly",
  "lang.cert.err_missing": "Please upload both the certificate (crt or pem) and the key",
  // lists and settings
  "lang.blacklist.err_ip": "Not an IP address (one IPv4 or IPv6 address per line)",
  "lang.blacklist.err_empty": "Please enter an entry",
  "lang.preset.err_incomplete": "Please fill in the information completely",
  "lang.poolnode.err_config":
    "Pool-node configuration check failed: coin, daemon RPC address, a cookie file or a user and password, pool address, difficulty and stratum port",
  "lang.poolnode.err_daemon": "The coin daemon did not answer, or refused the pool address",
  "lang.poolnode.err_subaccount_config":
    "Sub-account check failed: a name, one or more miner addresses, a rebate ratio from 0 to 1",
  "lang.poolnode.err_address": "The coin daemon does not take this address",
  "lang.poolnode.err_member": "This miner address already belongs to another sub-account",
  "lang.poolnode.err_name_taken": "A sub-account of this name exists",
  "lang.poolnode.err_no_subaccount": "No such sub-account",
  "lang.poolnode.err_withdrawal_config":
    "Withdrawal check failed: a sub-account, an amount in base units of at least 0.001 coin, a destination address",
  "lang.poolnode.err_balance": "The amount exceeds what the sub-account may withdraw now",
  "lang.poolnode.err_withdrawal_state": "No such withdrawal, or it was already approved or refused",
  "lang.poolnode.err_busy": "The pool node is busy with other lookups; try again in a moment",
  "lang.poolnode.err_port_config":
    "Pool-node port check failed: port 1 to 65534, this node's coin and endpoint, TCP, difficulty above 0, remark up to 64 characters, 1 to 65535 connections",
  "lang.poolnode.err_port_in_use":
    "The appliance already uses this port: a proxy port, a pool-node port or the web console",
  "lang.poolnode.err_no_port": "No such pool-node port",
  "lang.poolnode.err_asset":
    "This node serves one coin, the one its project names; another coin needs a pool node of its own",
  "lang.poolnode.err_no_vendor":
    "This pool node runs on your own coin daemon: there is no vendor account to log in to or verify by mail",
  "lang.poolnode.err_page_config":
    "Public page check failed: port 1 to 65535, flag 0 or 1, a title up to 80 and a notice up to 300 characters",
  "lang.poolnode.err_project_port": "The project's stratum port is changed in the project settings, not here",
  "lang.poolnode.err_subaccount_not_empty": "The sub-account still has a balance or a withdrawal under way",
  "lang.proxy.err_poolnode_port": "The pool node already uses this port number",
  "lang.remote.err_required": "All three configurations are mandatory",
  "lang.remote.err_address": "The access address must start with https://",
  "lang.remote.err_https":
    "Group control talks to remotes over https only: give the remote's https:// address (its HTTPS port)",
  "lang.remote.err_confirm": "Check and confirm the certificate fingerprint the remote presents",
  "lang.remote.err_changed":
    "The remote now presents another certificate than the one you confirmed: check its fingerprint again",
  "lang.remote.err_fingerprint":
    "The remote presented another certificate than the pinned one, so it was not called; if its certificate was replaced, check the new fingerprint and pin it again",
  "lang.remote.err_unpinned":
    "This remote's certificate is not pinned yet: confirm its fingerprint before it is called",
  "lang.remote.err_fetch": "Token refresh or API fetch failure",
  "lang.remote.err_delete": "Client delete failed",
  "lang.alert.err_save": "Save offline-alert config failed",
  "lang.rms.err_update": "RMS update failed",
  "lang.pump.err_save": "Save failed",
  "lang.update.err_source": "The update source must be a URL",
  "lang.update.err_bundle": "Please choose an update bundle file",
  "lang.update.err_reason":
    "A downgrade needs a written reason (1 to 500 characters); it is kept in the audit log",
  "lang.update.err_refused": "Update refused",
  // fee audit export
  "lang.audit.err_port": "No such port: it may have been deleted",
  "lang.audit.err_range": "The fee audit range must run forward and cover at most 31 days",
  "lang.audit.err_format": "The fee audit is exported as csv or xlsx",
  "lang.audit.err_export": "Fee audit export failed",
} as const;

export type MessageKey = keyof typeof MESSAGES;
