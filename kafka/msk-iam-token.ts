// Amazon MSK IAM tokens (docs/security.md, Amazon MSK IAM): MSK takes IAM through SASL/OAUTHBEARER
// with a token that is a SigV4-presigned `kafka-cluster:Connect` URL for the cluster's region,
// base64url-encoded; AWS's own signer (aws-msk-iam-sasl-signer-js) makes it from the default
// credential provider chain — environment, shared profile, web identity (IRSA in Kubernetes),
// the container's or instance's role. Loaded only when the mechanism is chosen: a deployment on
// SCRAM or OIDC never loads the AWS SDK. A chain without credentials is said with what to set.
import type { OAuthTokenProvider } from '../src/engine/config/sasl-schema.ts';

export function mskIamTokenProvider(region: string): OAuthTokenProvider {
  return async () => {
    const { generateAuthToken } = await import('aws-msk-iam-sasl-signer-js');
    let signed: { token: string; expiryTime: number };
    try {
      signed = await generateAuthToken({ region });
    } catch (error) {
      throw new Error(
        `the MSK IAM signer found no AWS credentials for region ${region} (${(error as Error).message}): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or run with a role (IRSA's AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN, or the instance's role)`,
        { cause: error },
      );
    }
    return { value: signed.token, lifetimeMs: Math.max(0, signed.expiryTime - Date.now()) };
  };
}
