/**
 * The options object of an upstream session, shared by the sessions of a port that present the
 * same agent: in Efficient mode every miner opens its own session, and an options object made for
 * each was a long-lived object per miner. Options are never changed once made.
 */

/** miners name their agents freely: past this many, the shared options start over */
const MAX_AGENT_OPTIONS = 64;

export class OptionsByAgent<O> {
  private readonly byAgent = new Map<string, O>();

  /** `make(agent)`: the options of a session presenting `agent` */
  constructor(private readonly make: (agent: string) => O) {}

  /** The options for sessions presenting `agent` (what the pool is told, after the port's override). */
  get(agent: string): O {
    let o = this.byAgent.get(agent);
    if (o === undefined) {
      if (this.byAgent.size >= MAX_AGENT_OPTIONS) this.byAgent.clear();
      o = this.make(agent);
      this.byAgent.set(agent, o);
    }
    return o;
  }
}
