declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'cloud.folder_created': { name: string };
    'cloud.folder_updated': { name: string; moved: boolean };
    'cloud.folder_trashed': { name: string };
    'cloud.file_created': { name: string; size: number; content_type: string };
    'cloud.file_updated': { name: string; moved: boolean };
    'cloud.file_versioned': { version: number; size: number };
    'cloud.file_trashed': { name: string };
    'cloud.item_restored': { name: string };
    'cloud.item_deleted': Record<string, never>;
  }
}
export {};
