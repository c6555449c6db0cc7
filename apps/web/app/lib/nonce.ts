import { createContext, useContext } from "react";

/**
 * The nonce of this response's Content-Security-Policy, given by entry.server to the scripts Remix writes inline. In
 * the browser it is empty: browsers hide a nonce from the page once the document is parsed.
 */
export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
