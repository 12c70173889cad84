// The SASL settings of every Kafka client (docs/security.md): a user and password (PLAIN,
// SCRAM-SHA-256, SCRAM-SHA-512), or OAUTHBEARER — an OIDC provider's tokens by the client
// credentials grant, a custom token provider, or Amazon MSK IAM's signed tokens. Tokens are
// fetched and renewed at the edge (kafka/oauth-token.ts).
import { z } from 'zod';

const saslMechanisms = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

/** A user and password: PLAIN or SCRAM. */
export const passwordSaslSchema = z.strictObject({
  mechanism: z.enum(saslMechanisms),
  username: z.string().min(1),
  password: z.string().min(1),
});

/** A custom OAUTHBEARER token provider: called when a token is needed; a token is reused until 80% of its lifetime has passed. */
export type OAuthTokenProvider = () => Promise<{ value: string; lifetimeMs: number; extensions?: Record<string, string> }>;

/**
 * SASL/OAUTHBEARER (docs/security.md, OAuth): tokens from an OIDC provider's token endpoint with
 * the client credentials grant (`tokenEndpointUrl`, `clientId`, `clientSecret` or
 * `clientSecretFile`, `scope`), or from `tokenProvider`; `extensions` go with every login
 * (Confluent Cloud's `logicalCluster` and `identityPoolId`, for instance).
 */
export const oauthbearerSaslSchema = z
  .strictObject({
    mechanism: z.literal('oauthbearer'),
    tokenEndpointUrl: z.url({ protocol: /^https?$/, error: 'expected the http(s) URL of the OIDC token endpoint' }).optional(),
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    clientSecretFile: z.string().min(1).optional(),
    scope: z.string().min(1).optional(),
    extensions: z.record(z.string().regex(/^[A-Za-z]+$/, 'an extension key is letters only (RFC 7628)'), z.string()).optional(),
    tokenProvider: z.custom<OAuthTokenProvider>((value) => typeof value === 'function', { message: 'expected a function returning a promise of { value, lifetimeMs, extensions? }' }).optional(),
  })
  .superRefine((sasl, context) => {
    if (sasl.tokenProvider !== undefined) {
      if (sasl.tokenEndpointUrl !== undefined) context.addIssue({ code: 'custom', path: ['tokenProvider'], message: 'give either tokenProvider or tokenEndpointUrl with client credentials, not both' });
      return;
    }
    if (sasl.tokenEndpointUrl === undefined) context.addIssue({ code: 'custom', path: ['tokenEndpointUrl'], message: 'OAUTHBEARER needs the OIDC token endpoint (KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL), or a tokenProvider in the config file' });
    if (sasl.clientId === undefined) context.addIssue({ code: 'custom', path: ['clientId'], message: 'OAUTHBEARER with a token endpoint needs the client id (KAFKA_SASL_OAUTHBEARER_CLIENT_ID)' });
    if ((sasl.clientSecret === undefined) === (sasl.clientSecretFile === undefined)) {
      context.addIssue({ code: 'custom', path: ['clientSecret'], message: 'give the client secret once: KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET, or the path of a file holding it in KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET_FILE' });
    }
  });

/**
 * Amazon MSK IAM: SASL/OAUTHBEARER with a token AWS's signer (aws-msk-iam-sasl-signer-js) makes
 * from the default credential provider chain (environment, profile, web identity / IRSA, the
 * instance's role), for `region` (else AWS_REGION or AWS_DEFAULT_REGION).
 */
export const awsMskIamSaslSchema = z.strictObject({
  mechanism: z.literal('aws-msk-iam'),
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, "expected an AWS region such as 'us-east-1'").optional(),
});

export const saslSchema = z.discriminatedUnion('mechanism', [passwordSaslSchema, oauthbearerSaslSchema, awsMskIamSaslSchema], {
  error: (issue) =>
    issue.code === 'invalid_union' ? "expected mechanism 'plain', 'scram-sha-256', 'scram-sha-512' (with username and password), 'oauthbearer' or 'aws-msk-iam' (KAFKA_SASL_MECHANISM)" : undefined,
});
