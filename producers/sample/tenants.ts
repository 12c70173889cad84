// Sample tenants: who the agents serve, with the request-context facts filters select on.

export type Tenant = {
  id: string;
  tier: 'free' | 'pro' | 'enterprise';
  region: string;
  locales: readonly string[];
  /** Share of the traffic, relative to the others. */
  weight: number;
};

export const tenants: readonly Tenant[] = [
  { id: 'acme', tier: 'enterprise', region: 'eu-west-1', locales: ['en-GB', 'de-DE'], weight: 5 },
  { id: 'globex', tier: 'pro', region: 'us-east-1', locales: ['en-US'], weight: 4 },
  { id: 'initech', tier: 'free', region: 'us-west-2', locales: ['en-US', 'es-US'], weight: 3 },
  { id: 'umbrella', tier: 'pro', region: 'ap-northeast-1', locales: ['ja-JP', 'en-US'], weight: 2 },
  { id: 'hooli', tier: 'enterprise', region: 'eu-central-1', locales: ['fr-FR', 'en-GB'], weight: 2 },
];

/** The user's plan inside the tenant (a nested request-context field filters can reach). */
export const plansByTier: Record<Tenant['tier'], readonly string[]> = {
  free: ['trial', 'basic'],
  pro: ['basic', 'plus'],
  enterprise: ['plus', 'premium'],
};

/** Small talk that sometimes precedes a conversation, as remembered turns. */
export const openingTurns: ReadonlyArray<readonly [string, string]> = [
  ['Hi there!', 'Hello! How can I help you today?'],
  ['Good morning.', 'Good morning! What can I do for you?'],
  ['Are you a bot?', 'I am an AI assistant, and a human colleague can take over whenever you like.'],
];
