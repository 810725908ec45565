import { createContext, useContext } from 'react';

/** The API origin the host gave this remote (links such as Login As are opened against it). */
export const ApiBaseContext = createContext('');
export const useApiBase = () => useContext(ApiBaseContext);
