/**
 * What each third-party script is given and reports. The scripts (and this file) are copied next to
 * the clients generated from openapi.json and typechecked there with `tsc --strict`; they import
 * nothing from Riff.
 */
export interface Account {
  email: string;
  username: string;
  password: string;
}

export interface ScriptInput {
  baseUrl: string;
  account: Account;
  /** The audio to upload. */
  audio: Blob;
  /** The token of the verification mail sent to this address. */
  verificationToken(email: string): Promise<string>;
}

export interface ScriptReport {
  userId: string;
  trackId: string;
  title: string;
  isPublic: boolean;
  rangeStatus: number;
  rangeBytes: number;
  contentRange: string | null;
  errorStatus: number;
  errorCode: string;
}
