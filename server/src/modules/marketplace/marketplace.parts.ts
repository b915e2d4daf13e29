import type { Platform } from '../../platform/platform.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { ProductCatalog } from './product-catalog.js';

/** What every part of the marketplace is built from: the routes of each part take what they need. */
export interface MarketplaceParts {
  platform: Platform;
  /** The tracks area's read port: a track product links a track of the seller's and delivers its original. */
  tracks: TrackReader;
  /** The users area's read port: sellers and buyers. */
  people: PeopleReader;
  /** The products part's read port: what a product delivers (for downloads). */
  catalog: ProductCatalog;
}
