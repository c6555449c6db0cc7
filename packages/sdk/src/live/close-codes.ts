/**
 * Close codes the room uses; a client does not reconnect after a kick or a refused token. Apart from protocol.ts so
 * that the client, which needs only these at run time, does not bring zod and the schemas into a browser bundle.
 */
export const CloseCode = { kicked: 4003, unauthorized: 4001, reset: 4000 } as const;
