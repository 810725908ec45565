// The agents module's only door. Other modules use these, never the files behind them.
export { agentsRouter } from './agents.routes';
export { getAccessibleAgent, findAgent } from './agents.service';
export { presentAgent, type AgentView } from './agents.presenter';
