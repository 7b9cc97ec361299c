/**
 * xmrig's stratum methods (protocols.md §C), one constant per method, and the extensions the proxy
 * advertises to miners at login.
 */
export const Method = {
  /** miner → pool: {login, pass, agent, rigid?, algo?}; the result carries the rpc id and first job */
  LOGIN: "login",
  /** pool → miner notification: a new job */
  JOB: "job",
  /** miner → pool: {id, job_id, nonce, result, algo?}; answered {status: "OK"} */
  SUBMIT: "submit",
  /** miner → pool: {id}; answered {status: "KEEPALIVED"} */
  KEEPALIVED: "keepalived",
  /** miner → pool: {id}; answered with a job (node-cryptonote-pool's; xmrig itself never sends it) */
  GETJOB: "getjob",
} as const;

/**
 * "nicehash" makes xmrig keep the nonce's top byte as the job gives it (Job::setBlob), which is how
 * each miner gets its own byte of a shared job; "keepalive" invites keepalived.
 */
export const MINER_EXTENSIONS = ["algo", "nicehash", "keepalive"] as const;
