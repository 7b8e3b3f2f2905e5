// The CalDAV adapter of the calendar port (docs/booking.md).
import { definePlugin, type FormloomPlugin } from '@formloom/core';
import { caldavCalendars, type CaldavOptions } from './caldav-calendar';

export { CaldavCalendar, caldavCalendars, type CaldavOptions } from './caldav-calendar';

/** A plugin giving an instance CalDAV calendars: `createFormloom({ plugins: [caldavPlugin()] })`. */
export function caldavPlugin(options: CaldavOptions = {}): FormloomPlugin<CaldavOptions> {
  return definePlugin({ name: 'calendar-caldav', version: '0.1.0', options, adapters: { calendars: caldavCalendars(options) } });
}
