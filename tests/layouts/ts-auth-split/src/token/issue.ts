import { AppConfig } from '../config';
import { nowSeconds } from '../utils/clock';
import { signJwt } from '../utils/jwt';
import { AccessClaims, IssuedAccessToken } from './types';

export interface AccessSubject {
  userId: string;
  sessionId: string;
  scopes: string[];
}

/** Mints a short-lived access token for an open session. */
export function issueAccessToken(
  subject: AccessSubject,
  config: Pick<AppConfig, 'signingKey' | 'issuer' | 'accessTtlSeconds'>,
): IssuedAccessToken {
  const iat = nowSeconds();
  const claims: AccessClaims = {
    sub: subject.userId,
    iss: config.issuer,
    iat,
    exp: iat + config.accessTtlSeconds,
    sid: subject.sessionId,
    use: 'access',
    scopes: [...subject.scopes].sort(),
  };
  return { value: signJwt(claims, config.signingKey), exp: claims.exp };
}

/** Same subject, fresh lifetime; used by POST /auth/refresh. */
export function reissueAccessToken(
  previous: AccessClaims,
  config: Pick<AppConfig, 'signingKey' | 'issuer' | 'accessTtlSeconds'>,
): IssuedAccessToken {
  return issueAccessToken(
    { userId: previous.sub, sessionId: previous.sid, scopes: previous.scopes },
    config,
  );
}
