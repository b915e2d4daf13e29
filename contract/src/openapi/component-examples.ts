/**
 * One realistic example per named schema of openapi.json (components.schemas), written as the JSON
 * on the wire. They are what /docs shows and what `prism mock` answers, so a frontend can be built
 * against them: one account, one public track, lists whose pagination matches their items.
 * tests/contract/examples.test.ts parses each with its zod schema and requires one per component.
 */
import type { Track } from '../areas/tracks/tracks.schemas.js';
import type { Preferences, Profile, User } from '../areas/users/users.schemas.js';

const USER_ID = '0b6f3c2e-8d4a-4f1e-9c7b-2a5d6e8f1a3b';
const OTHER_USER_ID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const TRACK_ID = '5f2b9d4c-1e7a-4b3c-8d6f-9a0e2c4b6d8f';
const UPLOAD_ID = 'c3a1e5f7-2b4d-4c6e-8a0b-1d3f5e7a9c2b';
const AUDIT_ID = 'e4d3c2b1-a0f9-4e8d-9c7b-6a5f4e3d2c1b';
const CREATED = '2026-11-20T09:30:00.000Z';
const UPDATED = '2026-11-21T10:00:00.000Z';
const EXPIRES = '2026-11-22T10:00:00.000Z';

const ACCESS_TOKEN =
  'eyJhbGciOiJFUzI1NiIsImtpZCI6InJpZmYtMjAyNi0xMSIsInR5cCI6IkpXVCJ9.' +
  'eyJzdWIiOiIwYjZmM2MyZS04ZDRhLTRmMWUtOWM3Yi0yYTVkNmU4ZjFhM2IiLCJhdWQiOiJhcGkiLCJleHAiOjE3OTU3Nzg5MDB9.' +
  'c2lnbmF0dXJlLW9mLXRoZS1hY2Nlc3MtdG9rZW4';
const REFRESH_TOKEN = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a.Qm9vay1zZWNyZXQtb2YtdGhlLXJlZnJlc2gtdG9rZW4';
const TWO_FACTOR_TOKEN = 'tf_3q9XrT2mVb8KcLw5NzYp0Hs7Ud4Ga1Ej';

const trackVersion = {
  id: '8e7d6c5b-4a3f-4e2d-9c1b-0a9f8e7d6c5b',
  version_number: 2,
  format: 'flac',
  duration: 242,
  file_size: 28_311_552,
  md5: '9e107d9d372bb6826bd81d3542a419d6',
  created_at: UPDATED,
  is_current: true,
} as const;

const PRODUCT_ID = 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a';
const ORDER_ID = 'f0e1d2c3-b4a5-4968-8776-655443322110';
const orderItem = {
  id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  order_id: ORDER_ID,
  product_id: PRODUCT_ID,
  title: 'Night Drive stems',
  license_type: 'commercial',
  price: 19.99,
  price_cents: 1999,
  discount_cents: 200,
} as const;
const orderPayment = {
  provider: 'sandbox',
  checkout_url: 'https://riff.example.org/api/v1/marketplace/sandbox/checkout/sbx_0f9e8d7c6b5a49382716050f4e3d2c1b',
  expires_at: EXPIRES,
} as const;
const order = {
  id: ORDER_ID,
  buyer_id: USER_ID,
  items: [orderItem],
  total_amount: 17.99,
  subtotal_cents: 1999,
  total_cents: 1799,
  currency: 'USD',
  discount_amount_cents: 200,
  promo_code_id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
  status: 'pending',
  payment_status: 'requires_payment',
  payment_provider_payment_id: null,
  payment_intent: 'sbx_0f9e8d7c6b5a49382716050f4e3d2c1b',
  payment: orderPayment,
  refund_deadline: null,
  completed_at: null,
  refunded_at: null,
  created_at: CREATED,
  updated_at: CREATED,
} as const;

const invoiceLine = {
  product_id: PRODUCT_ID,
  title: 'Night Drive stems',
  license_type: 'commercial',
  price_cents: 1999,
  discount_cents: 200,
  total_cents: 1799,
} as const;

const invoice = {
  number: 'INV-2026-000042',
  issued_at: UPDATED,
  seller: { id: OTHER_USER_ID, name: 'Theo Marsh', email: null },
  buyer: { id: USER_ID, name: 'Mira Okafor', email: 'mira@example.org' },
  lines: [invoiceLine],
  discount_cents: 200,
  total_cents: 1799,
  currency: 'USD',
} as const;

const sellerStats = {
  period: '7d',
  revenue_cents_by_currency: { USD: 5397 },
  orders: 4,
  units_sold: 3,
  refunds: 1,
  refund_rate: 0.25,
  top_products: [{ product_id: PRODUCT_ID, title: 'Night Drive stems', units: 3, revenue_cents: 5397 }],
  daily: [
    { date: '2026-11-15', orders: 0, revenue_cents: 0 },
    { date: '2026-11-16', orders: 1, revenue_cents: 1799 },
    { date: '2026-11-17', orders: 0, revenue_cents: 0 },
    { date: '2026-11-18', orders: 2, revenue_cents: 1799 },
    { date: '2026-11-19', orders: 0, revenue_cents: 0 },
    { date: '2026-11-20', orders: 1, revenue_cents: 1799 },
    { date: '2026-11-21', orders: 0, revenue_cents: 0 },
  ],
} as const;

const review = {
  id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  product_id: PRODUCT_ID,
  author_id: USER_ID,
  rating: 5,
  comment: 'Clean stems, great low end.',
  created_at: UPDATED,
  updated_at: UPDATED,
} as const;

const COMMENT_ID = 'a7b6c5d4-e3f2-4a1b-9c8d-7e6f5a4b3c2d';
const REPLY_ID = 'b8c7d6e5-f4a3-4b2c-8d9e-0f1a2b3c4d5e';

const comment = {
  id: COMMENT_ID,
  track_id: TRACK_ID,
  user: { id: OTHER_USER_ID, username: 'theo.marsh', slug: 'theo-marsh', avatar: null },
  parent_id: null,
  content: 'That filter sweep at 1:32 is perfect.',
  timestamp: 92,
  reply_count: 1,
  is_edited: false,
  is_deleted: false,
  created_at: CREATED,
  updated_at: CREATED,
};

const reply = {
  ...comment,
  id: REPLY_ID,
  user: { id: USER_ID, username: 'mira.lane', slug: 'mira-lane', avatar: null },
  parent_id: COMMENT_ID,
  content: 'Thanks! A Juno-106 through a tape echo.',
  timestamp: 0,
  reply_count: 0,
  is_edited: true,
  updated_at: UPDATED,
};

const userResponse = { id: USER_ID, username: 'mira.lane', email: 'mira@example.org' };

const user: User = {
  ...userResponse,
  slug: 'mira-lane',
  first_name: 'Mira',
  last_name: 'Lane',
  avatar: null,
  banner_url: null,
  bio: 'Producer and synth collector from Leeds.',
  birthdate: '1994-05-17',
  gender: 'Female',
  location: 'Leeds, UK',
  social_links: { bandcamp: 'https://miralane.bandcamp.com' },
  role: 'creator',
  is_active: true,
  is_admin: false,
  is_banned: false,
  is_public: true,
  is_verified: true,
  login_count: 12,
  token_version: 1,
  last_login_at: UPDATED,
  username_changed_at: null,
  password_changed_at: null,
  promoted_to_creator_at: CREATED,
  created_at: CREATED,
  updated_at: UPDATED,
};

const profile: Profile = {
  id: OTHER_USER_ID,
  username: 'theo.marsh',
  slug: 'theo-marsh',
  avatar: null,
  is_public: true,
  first_name: 'Theo',
  last_name: 'Marsh',
  bio: 'Ambient and field recordings.',
  banner_url: null,
  location: 'Bristol, UK',
  social_links: {},
  role: 'creator',
  is_verified: true,
  promoted_to_creator_at: CREATED,
  follower_count: 42,
  following_count: 7,
  is_following: false,
  created_at: CREATED,
};

const track: Track = {
  id: TRACK_ID,
  creator_id: USER_ID,
  title: 'Night Drive',
  artist: 'Mira Lane',
  album: 'Neon Coast',
  genre: 'synthwave',
  genres: ['synthwave', 'electronic'],
  year: 2026,
  bpm: 118,
  musical_key: 'F#m',
  tags: ['night', 'retro'],
  is_public: true,
  duration: 214,
  bitrate: 320,
  sample_rate: 44100,
  file_size: 8_563_200,
  format: 'mp3',
  file_id: TRACK_ID,
  file_path: `/api/v1/tracks/${TRACK_ID}/stream`,
  cover_art_path: null,
  waveform_path: null,
  waveform_url: null,
  status: 'completed',
  status_message: null,
  stream_status: 'ready',
  stream_manifest_url: null,
  play_count: 128,
  like_count: 9,
  created_at: CREATED,
  updated_at: UPDATED,
};

const OTHER_TRACK_ID = 'a7b8c9d0-e1f2-4a3b-8c4d-5e6f7a8b9c0d';
const otherTrack: Track = {
  ...track,
  id: OTHER_TRACK_ID,
  creator_id: OTHER_USER_ID,
  title: 'Harbour Lights',
  artist: 'Theo Marsh',
  album: null,
  file_id: OTHER_TRACK_ID,
  file_path: `/api/v1/tracks/${OTHER_TRACK_ID}/stream`,
  play_count: 41,
  like_count: 3,
};

const preferences: Preferences = {
  notifications: {
    email_new_follower: true,
    email_comments: true,
    email_purchases: true,
    email_product_updates: false,
    push_enabled: false,
  },
  privacy: { show_activity: true, show_listening_history: false, allow_messages_from: 'followers', do_not_sell: false },
  playback: { autoplay: true, crossfade_seconds: 4, audio_quality: 'high', normalize_volume: true },
};

const auditEntry = {
  id: AUDIT_ID,
  user_id: USER_ID,
  action: 'track.update',
  resource: 'track',
  resource_id: TRACK_ID,
  ip_address: '203.0.113.24',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0',
  metadata: { fields: ['title', 'genres'] },
  created_at: UPDATED,
};

/** A first page holding every item: total and total_pages agree with the list. */
const dashboardStats = {
  period: '30d',
  tracks_played: 142,
  favorites: 18,
  messages_sent: 9,
  active_friends: 4,
  tracks_played_change: '+12%',
  favorites_change: '-3%',
  messages_sent_change: 'new',
  active_friends_change: '0%',
};
const dashboardActivity = {
  id: '8c1f4e2a-6b3d-4a9e-b7c5-2d0f9e8a1b34',
  type: 'track.uploaded',
  title: 'Uploaded a track',
  description: 'Night Drive',
  icon: 'upload',
  timestamp: UPDATED,
  metadata: { resource: 'track', resource_id: TRACK_ID },
};
const dashboardLibraryItem = {
  id: TRACK_ID,
  title: 'Night Drive',
  artist: 'Nova Lights',
  cover_art_path: null,
  created_at: CREATED,
  duration: 214,
  like_count: 31,
  play_count: 1204,
};

const apiKey = {
  id: '5d2e8a41-7c3b-4f9e-a16d-0b8c9e2f4a71',
  name: 'Release bot',
  prefix: 'riff_7Kq2Xw9',
  scopes: ['read', 'write'],
  created_at: CREATED,
  last_used_at: UPDATED,
  expires_at: '2027-11-20T09:30:00.000Z',
};

const promoCode = {
  id: 'f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0',
  code: 'SUMMER25',
  percent_off: 25,
  amount_off_cents: null,
  currency: null,
  product_ids: [PRODUCT_ID],
  max_redemptions: 100,
  redemption_count: 3,
  expires_at: '2027-08-31T23:59:59.000Z',
  created_at: CREATED,
};

const WEBHOOK_ID = '6d1b2c3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const DELIVERY_ID = '7e2c3d4b-5f6a-4b7c-9d8e-0f1a2b3c4d5e';
const webhook = {
  id: WEBHOOK_ID,
  url: 'https://hooks.example.com/riff',
  events: ['track.created', 'track.processed', 'comment.created'],
  description: 'New uploads into our CMS',
  is_active: true,
  api_key_prefix: 'whk_3fQ9zLk2',
  created_at: CREATED,
  updated_at: UPDATED,
  last_delivery_at: UPDATED,
  consecutive_failures: 0,
  disabled_reason: null,
};
const delivery = {
  id: DELIVERY_ID,
  message_id: 'msg_2b5e8c1f9a4d7b3e6c0f2a8d5b1e4c7a',
  event_type: 'track.created',
  status: 'succeeded',
  attempts: 1,
  response_status: 200,
  response_excerpt: '{"ok":true}',
  duration_ms: 84,
  error: null,
  next_attempt_at: null,
  created_at: UPDATED,
  delivered_at: UPDATED,
};
const webhookStats = {
  webhooks_total: 2,
  webhooks_active: 1,
  deliveries: { total: 120, succeeded: 114, failed: 4, pending: 2 },
  success_rate: 0.9661,
  avg_duration_ms: 92,
  last_24h: { succeeded: 12, failed: 1 },
  by_event: { 'track.created': 40, 'comment.created': 80 },
};

const onePage = (items: number) => ({ page: 1, limit: 20, total: items, total_pages: items === 0 ? 0 : 1 });

const feedItem = {
  type: 'repost',
  track,
  actor: { ...profile, id: OTHER_USER_ID, username: 'theo.marsh', slug: 'theo-marsh' },
  created_at: UPDATED,
};
const historyEntry = { track, played_at: UPDATED, duration_listened: 184.5, source: 'track' };
const trackStats = {
  period: '7d',
  play_count: 42,
  unique_listeners: 31,
  like_count: 6,
  repost_count: 2,
  share_count: 3,
  comment_count: 0,
  download_count: 0,
  completion_rate: 0.64,
  daily: [
    { date: '2026-11-20', plays: 17, likes: 2 },
    { date: '2026-11-21', plays: 25, likes: 4 },
  ],
  sources: { track: 30, playlist: 9, search: 3 },
};

const tokenResponse = {
  access_token: ACCESS_TOKEN,
  refresh_token: REFRESH_TOKEN,
  token_type: 'Bearer',
  expires_in: 900,
};
const lyrics = {
  track_id: TRACK_ID,
  content: '[00:12.00]Headlights on the empty road\n[00:17.50]Radio low, the city glows',
  is_synced: true,
  lines: [
    { time_ms: 12_000, text: 'Headlights on the empty road' },
    { time_ms: 17_500, text: 'Radio low, the city glows' },
  ],
  updated_at: UPDATED,
};
const quota = {
  used_bytes: 8_563_200,
  reserved_bytes: 4_194_304,
  limit_bytes: 524_288_000,
  remaining_bytes: 511_530_496,
  track_count: 1,
};
const password = 'correct-horse-battery-staple';

const QUEUE_ITEM_ID = '2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f';
const SESSION_ID = '6b8d0f2a-4c6e-4a1b-8d3f-5e7a9c1b3d5f';
const PLAYLIST_ID = '9e1f3a5b-7c9d-4e2f-8a4b-6c8d0e2f4a6b';
const OTHER_PLAYLIST_ID = '1a3c5e7f-9b2d-4f6a-8c0e-2b4d6f8a0c1e';
const SESSION_TOKEN = 'Vq3xN8kR2mTz7LwY5bHc9JdF4sGp1AeU6oKi0ZrXyQw';
const queueItem = { id: QUEUE_ITEM_ID, track_id: TRACK_ID, track, position: 0, added_at: UPDATED };
const queue = {
  items: [queueItem],
  current_index: 0,
  position_seconds: 73.5,
  shuffle: false,
  repeat: 'off',
  version: 7,
  updated_at: UPDATED,
} as const;
const sessionHost = { id: USER_ID, username: 'mira.lane' };
const sessionItem = { ...queueItem, added_by: { id: OTHER_USER_ID, username: 'theo.marsh' } };
const session = {
  token: SESSION_TOKEN,
  share_url: `http://127.0.0.1:8080/api/v1/queue/session/${SESSION_TOKEN}`,
  host: sessionHost,
  title: 'Friday night listening',
  items: [sessionItem],
  current_index: 0,
  position_seconds: 73.5,
  is_playing: true,
  participants_count: 3,
  created_at: UPDATED,
  expires_at: EXPIRES,
};
const chatMessage = {
  id: '9f1e3d5c-7b9a-4e2c-8a6f-4d2b0e8c6a4f',
  user: { id: OTHER_USER_ID, username: 'theo.marsh' },
  text: 'This one is great',
  created_at: UPDATED,
};
const exportedSession = {
  id: SESSION_ID,
  title: 'Friday night listening',
  track_ids: [TRACK_ID],
  created_at: UPDATED,
  expires_at: EXPIRES,
};
const exportedChat = { id: chatMessage.id, session_id: SESSION_ID, text: 'This one is great', created_at: UPDATED };

const SHARE_TOKEN = 'pL4yl1sTsh4r3T0k3nXq9Zr2Wm7Kc5Nb8Vd3Fg6Hj1A';
const playlistTrack = {
  id: '3e5a7c9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d',
  playlist_id: PLAYLIST_ID,
  track_id: TRACK_ID,
  added_by: USER_ID,
  position: 0,
  added_at: UPDATED,
  track,
};
const collaborator = {
  id: '4f6b8d0c-2e3a-4b7c-9d1e-3f5a7b9c1d2e',
  playlist_id: PLAYLIST_ID,
  user_id: OTHER_USER_ID,
  permission: 'write',
  user: { id: OTHER_USER_ID, username: 'theo.marsh', slug: 'theo-marsh', avatar: null, is_public: true },
  created_at: UPDATED,
  updated_at: UPDATED,
} as const;
const playlistSummary = {
  id: PLAYLIST_ID,
  user_id: USER_ID,
  title: 'Late drives',
  description: 'Synthwave for the road home',
  cover_url: null,
  is_public: true,
  is_default_favorites: false,
  is_editorial: false,
  follower_count: 12,
  track_count: 1,
  snapshot_id: '8',
  is_following: false,
  created_at: CREATED,
  updated_at: UPDATED,
};
const playlist = { ...playlistSummary, tracks: [playlistTrack], collaborators: [collaborator] };
const playlistAnalytics = {
  follower_count: 12,
  track_count: 1,
  total_duration: 215,
  plays_from_playlist: 48,
  top_tracks: [{ track_id: TRACK_ID, plays: 48 }],
  followers_daily: Array.from({ length: 30 }, (_, index) => ({
    date: new Date(Date.UTC(2026, 10, 21) - (29 - index) * 86_400_000).toISOString().slice(0, 10),
    count: index === 29 ? 2 : index % 7 === 0 ? 1 : 0,
  })),
};

const productLicense = {
  id: '3e5a7c9e-1f2b-4d4e-8a6f-8b0c2d4e6f80',
  product_id: PRODUCT_ID,
  license_type: 'commercial',
  price_cents: 4999,
  terms_text: 'Unlimited streams, one commercial release',
  is_available: true,
  created_at: CREATED,
} as const;
const productImage = {
  id: '4f6b8d0f-2a3c-4e5f-9b7a-9c1d3e5f7a91',
  product_id: PRODUCT_ID,
  url: `http://127.0.0.1:8080/api/v1/marketplace/products/${PRODUCT_ID}/images/4f6b8d0f-2a3c-4e5f-9b7a-9c1d3e5f7a91`,
  content_type: 'image/jpeg',
  width: 1200,
  height: 1200,
  sort_order: 0,
  created_at: CREATED,
} as const;
const productPreview = {
  id: '5a7c9e1a-3b4d-4f6a-8c8b-0d2e4f6a8ba2',
  product_id: PRODUCT_ID,
  file_path: `/api/v1/marketplace/products/${PRODUCT_ID}/previews/5a7c9e1a-3b4d-4f6a-8c8b-0d2e4f6a8ba2`,
  url: `http://127.0.0.1:8080/api/v1/marketplace/products/${PRODUCT_ID}/previews/5a7c9e1a-3b4d-4f6a-8c8b-0d2e4f6a8ba2`,
  duration_sec: 60,
  created_at: CREATED,
} as const;
const product = {
  id: PRODUCT_ID,
  seller_id: USER_ID,
  title: 'Night Drive stems',
  description: 'Stems and the full mix of Night Drive',
  price: 19.99,
  currency: 'USD',
  product_type: 'pack',
  category: 'pack',
  bpm: 92,
  musical_key: 'F#m',
  license_type: 'premium',
  status: 'active',
  track_id: null,
  avg_rating: 4.5,
  review_count: 2,
  images: [productImage],
  previews: [productPreview],
  licenses: [productLicense],
  file: { filename: 'night-drive-stems.zip', size: 48_234_496, content_type: 'application/zip' },
  created_at: CREATED,
  updated_at: UPDATED,
} as const;

export const COMPONENT_EXAMPLES: Record<string, unknown> = {
  // auth
  RegisterRequest: { email: 'mira@example.org', password, password_confirmation: password, username: 'mira.lane' },
  RegisterResponse: {
    user: userResponse,
    verification_required: true,
    message: 'Registered. Check your email for the verification link.',
  },
  LoginRequest: { email: 'mira@example.org', password, remember_me: false },
  TokenResponse: tokenResponse,
  LoginSuccess: { requires_2fa: false, token: tokenResponse, user: userResponse },
  LoginTwoFactorRequired: { requires_2fa: true, two_factor_token: TWO_FACTOR_TOKEN, user: userResponse },
  LoginResponse: { requires_2fa: false, token: tokenResponse, user: userResponse },
  TwoFactorLoginRequest: { two_factor_token: TWO_FACTOR_TOKEN, code: '492817' },
  RefreshRequest: { refresh_token: REFRESH_TOKEN },
  UserResponse: userResponse,
  UsernameAvailability: { available: true, username: 'mira.lane' },
  ResendVerificationRequest: { email: 'mira@example.org' },
  PasswordResetRequest: { email: 'mira@example.org' },
  PasswordResetConfirmRequest: { token: 'Jb3kXv9QmT2pLw8RzN5cYh1s', password, password_confirmation: password },
  StreamTokenResponse: { token: ACCESS_TOKEN, expires_in: 300 },
  ChatToken: { token: ACCESS_TOKEN, expires_in: 600 },
  SetupTwoFactorResponse: {
    secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    qr_code_url:
      'otpauth://totp/Riff:mira%40example.org?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Riff&digits=6&period=30',
    recovery_codes: [
      'k7m2q-9xv4t',
      'p3w8z-r6n1b',
      'd5h9c-t2y7m',
      'f8q1v-w4k6s',
      'n2b7x-j9e3r',
      'g6t4p-m1z8c',
      'y9r3k-h5w2d',
      's1c6n-b8v4q',
      'w7e2j-x3m9t',
      'r4z8d-q6p1h',
    ],
  },
  VerifyTwoFactorRequest: { code: '492817', secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' },
  TwoFactorStatus: { enabled: false },
  DisableTwoFactorRequest: { password },
  Jwks: {
    keys: [
      {
        kty: 'EC',
        kid: 'riff-2026-11',
        alg: 'ES256',
        use: 'sig',
        crv: 'P-256',
        x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
        y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
      },
    ],
  },
  HealthStatus: { status: 'ok' },
  Message: { message: 'Done.' },

  // errors
  ErrorCode: 'VALIDATION_FAILED',
  ValidationIssue: { field: 'email', message: 'must be an email address', value: 'mira@' },
  ErrorBody: {
    code: 'VALIDATION_FAILED',
    message: 'The request is not valid',
    details: [{ field: 'email', message: 'must be an email address', value: 'mira@' }],
    request_id: '3f9a7c1e-5b2d-4e8f-a6c0-1d9b7e5f3a2c',
  },
  ErrorEnvelope: {
    success: false,
    error: {
      code: 'VALIDATION_FAILED',
      message: 'The request is not valid',
      details: [{ field: 'email', message: 'must be an email address', value: 'mira@' }],
      request_id: '3f9a7c1e-5b2d-4e8f-a6c0-1d9b7e5f3a2c',
    },
  },

  // users
  User: user,
  UserReply: { user },
  Profile: profile,
  Gender: 'Female',
  ProfileReply: { profile },
  UserPage: { users: [profile], pagination: onePage(1) },
  UserSuggestions: { users: [profile] },
  Pagination: onePage(1),
  UpdateProfileRequest: {
    bio: 'Producer and synth collector from Leeds.',
    location: 'Leeds, UK',
    social_links: { bandcamp: 'https://miralane.bandcamp.com' },
  },
  PasswordChangeRequest: {
    current_password: password,
    password: 'a new and longer passphrase',
    password_confirmation: 'a new and longer passphrase',
  },
  DeleteAccountRequest: {
    confirm_text: 'DELETE',
    password,
    reason: 'Moving to another service',
    keep_public_tracks: false,
  },
  ProfileCompletion: {
    percentage: 67,
    completed_fields: ['bio', 'first_name', 'last_name', 'location', 'birthdate', 'social_links'],
    missing_fields: ['avatar', 'banner_url', 'gender'],
  },
  FollowState: { following: true, follower_count: 43 },
  BlockState: { blocked: true },
  PrivacyOptOut: { do_not_sell: true, opted_out_at: UPDATED },
  Preferences: preferences,
  PreferencesReply: { preferences },
  UpdatePreferencesRequest: { playback: { crossfade_seconds: 4, audio_quality: 'high' } },
  UserExport: {
    exported_at: UPDATED,
    profile: user,
    preferences,
    following: [{ user_id: OTHER_USER_ID, username: 'theo.marsh', since: CREATED }],
    followers: [],
    blocks: [],
    tracks: [track],
    lyrics: [lyrics],
    audit_logs: [auditEntry],
    likes: [{ track_id: TRACK_ID, liked_at: UPDATED }],
    reposts: [],
    shares: [{ track_id: TRACK_ID, platform: 'link', shared_at: UPDATED }],
    listening_history: [{ track_id: TRACK_ID, played_at: UPDATED, duration_listened: 184.5, source: 'track' }],
    comments: [comment],
    // each id once per example (validators of examples read a repeated id as a second schema): the
    // queue holds another artist's track, not one listed above
    queue: { ...queue, items: [{ ...queueItem, track_id: OTHER_TRACK_ID, track: otherTrack }] },
    queue_sessions: [exportedSession],
    queue_chat_messages: [exportedChat],
    playlists: [
      {
        id: PLAYLIST_ID,
        title: 'Late drives',
        description: null,
        is_public: true,
        is_default_favorites: false,
        track_ids: [TRACK_ID],
        created_at: CREATED,
      },
    ],
    playlist_collaborations: [{ playlist_id: OTHER_PLAYLIST_ID, permission: 'write', since: UPDATED }],
    playlist_follows: [{ playlist_id: OTHER_PLAYLIST_ID, since: UPDATED }],
    marketplace_products: [product],
    marketplace_orders: [order],
    marketplace_sales: [],
    api_keys: [apiKey],
    webhooks: [webhook],
  },

  // audit
  AuditEntry: auditEntry,
  AuditActivity: { activities: [auditEntry] },
  AuditLogPage: { logs: [auditEntry], pagination: onePage(1) },
  AuditStatsReply: {
    stats: {
      total: 1,
      by_action: { 'track.update': 1 },
      by_resource: { track: 1 },
      first_at: UPDATED,
      last_at: UPDATED,
    },
  },

  // tracks
  Track: track,
  TrackReply: { track },
  TrackPage: { tracks: [track], pagination: onePage(1) },
  UploadTrackRequest: { file: 'night-drive.mp3', title: 'Night Drive', is_public: 'true' },
  ReplaceTrackFileRequest: { file: 'night-drive-remaster.flac' },
  SetAvatarRequest: { file: 'portrait.jpg' },
  UpdateTrackRequest: {
    title: 'Night Drive (Extended)',
    genres: ['synthwave'],
    tags: ['night', 'retro'],
    bpm: 118,
    is_public: true,
  },
  InitiateChunkedUploadRequest: { filename: 'night-drive.wav', total_chunks: 8, total_size: 37_748_736 },
  ChunkedUploadSession: {
    upload_id: UPLOAD_ID,
    message: 'Upload session started',
    chunk_size_limit: 5_242_880,
    expires_at: EXPIRES,
  },
  UploadChunkRequest: {
    upload_id: UPLOAD_ID,
    chunk_number: 0,
    total_chunks: 8,
    total_size: 37_748_736,
    filename: 'night-drive.wav',
    chunk: 'night-drive.wav.part0',
  },
  ChunkReceived: {
    upload_id: UPLOAD_ID,
    chunk_number: 0,
    received_chunks: 1,
    progress: 12.5,
    message: 'Chunk 0 received',
  },
  CompleteChunkedUploadRequest: { upload_id: UPLOAD_ID },
  ChunkedUploadComplete: { track, md5: '9e107d9d372bb6826bd81d3542a419d6', message: 'Upload complete' },
  ChunkedUploadState: {
    upload_id: UPLOAD_ID,
    chunks_received: 3,
    received_chunk_numbers: [0, 1, 2],
    total_chunks: 8,
    total_size: 37_748_736,
    expires_at: EXPIRES,
  },
  Quota: quota,
  QuotaReply: { quota },
  BatchDeleteRequest: { track_ids: [TRACK_ID, 'not-a-track-id'] },
  BatchDeleteResult: {
    deleted: [TRACK_ID],
    failed: [{ id: 'not-a-track-id', code: 'INVALID_ID', message: 'Not a track id' }],
  },
  BatchFailure: { id: 'not-a-track-id', code: 'INVALID_ID', message: 'Not a track id' },
  BatchUpdateRequest: { track_ids: [TRACK_ID], updates: { is_public: false } },
  BatchUpdateResult: { updated: [TRACK_ID], failed: [] },
  MediaStatus: {
    progress: 62,
    status: 'completed',
    stream_status: 'processing',
    status_message: null,
    waveform_ready: true,
  },
  TrackVersion: trackVersion,
  TrackVersionsReply: {
    versions: [
      trackVersion,
      {
        ...trackVersion,
        id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        version_number: 1,
        format: 'wav',
        duration: 241,
        file_size: 42_508_844,
        md5: '0cc175b9c0f1b6a831c399e269772661',
        created_at: CREATED,
        is_current: false,
      },
    ],
  },
  Waveform: {
    version: 2,
    channels: 1,
    sample_rate: 44100,
    samples_per_pixel: 5880,
    bits: 8,
    length: 4,
    data: [-12, 14, -87, 91, -102, 99, -31, 28],
  },
  HlsCallbackRequest: { status: 'error', message: 'The source file is truncated after 2:41' },
  Lyrics: lyrics,
  LyricsReply: { lyrics },
  UpdateLyricsRequest: { content: lyrics.content },

  // track social
  LikeState: { liked: true },
  RepostState: { reposted: true },
  FeedItem: feedItem,
  FeedPage: { items: [feedItem], pagination: onePage(1) },
  ShareRequest: { platform: 'link' },
  ShareReply: { share_url: `https://riff.example.org/api/v1/tracks/${TRACK_ID}` },
  PlayRequest: { duration_listened: 184.5, source: 'track' },
  PlayReply: { counted: true },
  HistoryEntry: historyEntry,
  HistoryPage: { history: [historyEntry], pagination: onePage(1) },
  TrackStats: trackStats,
  TrackStatsReply: { stats: trackStats },
  TrackList: { tracks: [track] },
  SuggestedTag: { tag: 'synthwave', score: 1, source: 'genre' },
  SuggestedTags: {
    tags: [
      { tag: 'synthwave', score: 1, source: 'genre' },
      { tag: 'drive', score: 0.5, source: 'metadata' },
      { tag: 'retro', score: 0.3, source: 'similar' },
    ],
  },
  // comments
  Comment: comment,
  CommentAuthor: comment.user,
  CommentReply: { comment },
  CommentPage: { comments: [comment], pagination: onePage(1) },
  CommentReplyPage: { replies: [reply], pagination: onePage(1) },
  CreateCommentRequest: { content: 'That filter sweep at 1:32 is perfect.', timestamp: 92 },
  UpdateCommentRequest: { content: 'That filter sweep at 1:32 is perfect. Still on repeat.' },
  // queue
  QueueTrack: track,
  QueueItem: queueItem,
  Queue: queue,
  QueueReply: { queue },
  QueueItemReply: { item: queueItem },
  UpdateQueueRequest: { track_ids: [TRACK_ID], current_index: 0, position_seconds: 0, repeat: 'all' },
  AddQueueItemRequest: { track_id: TRACK_ID, play_next: true },
  SessionUser: sessionHost,
  SessionUserOrNull: sessionHost,
  QueueSessionItem: sessionItem,
  QueueSession: session,
  QueueSessionReply: { session },
  QueueSessionItemReply: { item: sessionItem },
  CreateQueueSessionRequest: { title: 'Friday night listening' },
  UpdateQueueSessionRequest: { current_index: 0, position_seconds: 73.5, is_playing: true },
  AddQueueSessionItemRequest: { track_id: TRACK_ID },
  QueueChatMessage: chatMessage,
  ExportedQueueSession: exportedSession,
  ExportedChatMessage: exportedChat,

  // playlists
  Playlist: playlist,
  PlaylistTrack: playlistTrack,
  PlaylistCollaborator: collaborator,
  PlaylistReply: { playlist },
  PlaylistPage: { playlists: [playlistSummary], pagination: onePage(1) },
  PlaylistChange: { message: 'Track added to the playlist', snapshot_id: '9' },
  PlaylistCollaboratorReply: { collaborator },
  PlaylistCollaboratorPage: { collaborators: [collaborator], pagination: onePage(1) },
  PlaylistShare: {
    token: SHARE_TOKEN,
    share_url: `http://127.0.0.1:8080/api/v1/playlists/shared/${SHARE_TOKEN}`,
    expires_at: EXPIRES,
  },
  CreatePlaylistRequest: { title: 'Late drives', description: 'Synthwave for the road home', is_public: true },
  UpdatePlaylistRequest: { title: 'Late drives (2026)', is_public: false },
  AddPlaylistTrackRequest: { track_id: TRACK_ID, position: 0 },
  ReorderTracksRequest: { track_ids: [TRACK_ID] },
  AddCollaboratorRequest: { user_id: OTHER_USER_ID, permission: 'write' },
  UpdateCollaboratorRequest: { permission: 'admin' },
  SharePlaylistRequest: { expires_in_days: 30 },
  DuplicatePlaylistRequest: { title: 'Late drives, my take' },
  ExportedPlaylist: {
    id: PLAYLIST_ID,
    title: 'Late drives',
    description: null,
    is_public: true,
    is_default_favorites: false,
    track_ids: [TRACK_ID],
    created_at: CREATED,
  },
  ExportedPlaylistCollaboration: { playlist_id: OTHER_PLAYLIST_ID, permission: 'write', since: UPDATED },
  ExportedPlaylistFollow: { playlist_id: OTHER_PLAYLIST_ID, since: UPDATED },
  ImportPlaylistRequest: {
    title: 'Road trip',
    format: 'm3u',
    content:
      '#EXTM3U\n#PLAYLIST:Road trip\n#EXTINF:215,Nova Lights - Late Drive\nhttps://riff.example.org/api/v1/tracks/' +
      TRACK_ID +
      '/stream\n',
  },
  UnmatchedPlaylistEntry: { line: 5, title: 'Jóga', artist: 'Björk' },
  PlaylistImportReply: {
    playlist: { ...playlistSummary, is_public: false, follower_count: 0 },
    matched: 1,
    unmatched: [{ line: 5, title: 'Jóga', artist: 'Björk' }],
  },
  PlaylistAnalytics: playlistAnalytics,
  PlaylistAnalyticsReply: { analytics: playlistAnalytics },

  // marketplace: promo codes
  PromoCode: promoCode,
  PromoCodeList: [promoCode],
  CreatePromoCodeRequest: {
    code: 'SUMMER25',
    percent_off: 25,
    product_ids: [PRODUCT_ID],
    max_redemptions: 100,
    expires_at: '2027-08-31T23:59:59.000Z',
  },
  // marketplace: products
  Product: product,
  ProductLicense: productLicense,
  ProductImage: productImage,
  ProductPreview: productPreview,
  ProductFile: product.file,
  ProductList: [product],
  ProductCategory: 'pack',
  LicenseType: 'premium',
  LicenseTypeInput: 'standard',
  ProductLicenseType: 'commercial',
  // the product appears once (validators of examples read a repeated id as a second schema)
  ProductRemoval: { id: PRODUCT_ID, result: 'deleted', product: null },
  ProductLicenseInput: {
    license_type: 'commercial',
    price_cents: 4999,
    terms_text: 'Unlimited streams, one commercial release',
  },
  CreateProductRequest: {
    title: 'Night Drive stems',
    price: 19.99,
    currency: 'USD',
    product_type: 'pack',
    category: 'pack',
    license_type: 'commercial',
    bpm: 92,
    musical_key: 'F#m',
    licenses: [{ license_type: 'commercial', price_cents: 4999 }],
  },
  UpdateProductRequest: { price: 24.99, status: 'active' },
  CreateProductLicenseRequest: {
    license_type: 'exclusive',
    price_cents: 49_900,
    terms_text: 'Sole rights; the product leaves the store once sold',
  },
  UpdateProductLicenseRequest: { price_cents: 5999 },
  AddProductImageRequest: { file: 'cover.jpg' },
  AddProductPreviewRequest: { file: 'night-drive-preview.mp3' },
  PutProductFileRequest: { file: 'night-drive-stems.zip' },
  // marketplace: orders
  OrderItem: orderItem,
  OrderPayment: orderPayment,
  Order: order,
  OrderList: [order],
  CreateOrderItem: { product_id: PRODUCT_ID, license_type: 'commercial' },
  CreateOrderRequest: { items: [{ product_id: PRODUCT_ID, license_type: 'commercial' }], promo_code: 'SPRING10' },
  RefundOrderRequest: { reason: 'Bought the wrong license' },
  DownloadLink: {
    url: `https://riff.example.org/api/v1/marketplace/download/${PRODUCT_ID}/file?user=${USER_ID}&expires=1795778900&signature=3q9XrT2mVb8KcLw5NzYp0Hs7Ud4Ga1Ej`,
    expires_at: EXPIRES,
    filename: 'night-drive-stems.zip',
  },
  PaymentWebhookEvent: {
    id: 'evt_0f9e8d7c6b5a49382716050f4e3d2c1b_succeed',
    type: 'payment.succeeded',
    created: 1795778900,
    data: { order_id: ORDER_ID },
  },
  PaymentWebhookReply: { received: true },
  SellerStats: sellerStats,
  SellerStatsReply: { stats: sellerStats },
  Invoice: invoice,
  InvoiceLine: invoiceLine,
  InvoiceParty: invoice.buyer,
  InvoiceReply: { invoice },
  Review: review,
  ReviewList: [review],
  CreateReviewRequest: { rating: 5, comment: 'Clean stems, great low end.' },

  // developer API keys
  ApiKeyScope: 'read',
  ApiKey: apiKey,
  ApiKeyList: { api_keys: [apiKey] },
  CreateApiKeyRequest: { name: 'Release bot', scopes: ['read', 'write'], expires_at: '2027-11-20T09:30:00.000Z' },
  CreatedApiKey: { api_key: apiKey, key: 'riff_7Kq2Xw9LmP4sT8vB3nD6fH1jR5yU0cA2eG7iM9oQ' },

  // frontend support
  FrontendLogRequest: {
    level: 'error',
    message: 'Playback failed: MEDIA_ERR_NETWORK',
    timestamp: UPDATED,
    context: { page: '/tracks/night-drive', build: '4.2.0' },
    data: { track_id: TRACK_ID },
  },
  FrontendLogReceipt: { received: true },
  ValidateRequest: { type: 'CreatePlaylistRequest', data: [123, 34, 116, 105, 116, 108, 101, 34, 58, 34, 34, 125] },
  ValidateResponse: {
    valid: false,
    message: 'title must be at least 1 character',
    errors: [{ field: 'title', message: 'title must be at least 1 character', value: '' }],
  },
  IceServer: { urls: ['stun:stun.example.org:3478'] },
  WebRtcConfig: {
    iceServers: [
      { urls: ['stun:stun.example.org:3478'] },
      {
        urls: ['turn:turn.example.org:3478?transport=udp'],
        username: '1795778900:' + USER_ID,
        credential: 'p7GdLz0v6l0vJ1r8sXl2n0Qm9kA=',
      },
    ],
  },

  // dashboard
  DashboardStats: dashboardStats,
  DashboardActivity: dashboardActivity,
  DashboardLibraryItem: dashboardLibraryItem,
  DashboardResponse: {
    stats: dashboardStats,
    recent_activity: [dashboardActivity],
    library_preview: { items: [dashboardLibraryItem], total_count: 12, has_more: true },
  },

  // webhooks
  Webhook: webhook,
  CreateWebhookRequest: {
    url: 'https://hooks.example.com/riff',
    events: ['track.created', 'comment.created'],
    description: 'New uploads into our CMS',
  },
  UpdateWebhookRequest: { is_active: true },
  CreatedWebhook: {
    webhook,
    api_key: 'whk_3fQ9zLk2Vb8NwR4tY7uP1sD6gH0jK5mX',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  },
  WebhookReply: { webhook },
  WebhookList: { webhooks: [webhook] },
  WebhookKey: { api_key: 'whk_8Hs2Lq9Vn4Rt7Yw1Zx5Cb3Nm6Pk0Dj2F', message: 'The previous key no longer works' },
  WebhookSecret: {
    secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
    message: 'Deliveries are signed with both secrets until 2026-11-22T10:00:00.000Z',
  },
  WebhookDelivery: delivery,
  WebhookDeliveryPage: { deliveries: [delivery], pagination: onePage(1) },
  WebhookDeliveryReply: { delivery: { ...delivery, status: 'pending', delivered_at: null, next_attempt_at: UPDATED } },
  WebhookTestReply: {
    message: 'The receiver accepted the test event',
    delivery: { ...delivery, event_type: 'webhook.test' },
  },
  WebhookStats: webhookStats,
  WebhookStatsReply: { stats: webhookStats },

  // search
  SearchResponse: {
    query: 'night drive',
    results: { tracks: [track], users: [profile], playlists: [playlistSummary], products: [product] },
    totals: { tracks: 14, users: 1, playlists: 3, products: 2 },
  },
  Suggestion: { type: 'track', id: TRACK_ID, text: 'Night Drive' },
  SuggestionsResponse: {
    suggestions: [
      { type: 'track', id: TRACK_ID, text: 'Night Drive' },
      { type: 'playlist', id: PLAYLIST_ID, text: 'Night drives, slow' },
    ],
  },
  TrendingTrack: { track, score: 41.2875 },
  TrendingTracks: { tracks: [{ track, score: 41.2875 }] },
};
