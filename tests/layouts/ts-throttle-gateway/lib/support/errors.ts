export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found`);
export const badRequest = (message: string) => new ApiError(400, 'bad_request', message);
export const unauthorized = () => new ApiError(401, 'unauthorized', 'missing or unknown API key');
export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiError(429, 'too_many_requests', 'slow down', { 'Retry-After': String(retryAfterSeconds) });
export const payloadTooLarge = (max: number) =>
  new ApiError(413, 'payload_too_large', `request body exceeds ${max} bytes`);
