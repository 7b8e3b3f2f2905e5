/*
 * The words of a booking's mail to the respondent (docs/booking.md, "Calendar events and mails"), in the 12
 * languages the respondent's page speaks (docs/respondents.md, "Languages"): the mail is in the language the
 * response was answered in, else the form's, else English. The owner's mail stays in English, as the workspace.
 */

export interface BookingMailWords {
  confirmed: string;
  rescheduled: string;
  cancelled: string;
  cancel: string;
  reschedule: string;
  form: string;
  /** The invitation's description before the link. */
  manage: string;
  /** Who the invitation is for when no title is known. */
  booking: string;
}

export const BOOKING_MAIL_WORDS: Readonly<Record<string, BookingMailWords>> = {
  en: { confirmed: 'Booked', rescheduled: 'Moved', cancelled: 'Cancelled', cancel: 'Cancel', reschedule: 'Reschedule', form: 'Form', manage: 'To cancel or move this booking', booking: 'Booking' },
  es: { confirmed: 'Reservado', rescheduled: 'Cambiado', cancelled: 'Cancelado', cancel: 'Cancelar', reschedule: 'Cambiar la hora', form: 'Formulario', manage: 'Para cancelar o cambiar esta reserva', booking: 'Reserva' },
  fr: { confirmed: 'Réservé', rescheduled: 'Déplacé', cancelled: 'Annulé', cancel: 'Annuler', reschedule: 'Déplacer', form: 'Formulaire', manage: 'Pour annuler ou déplacer cette réservation', booking: 'Réservation' },
  de: { confirmed: 'Gebucht', rescheduled: 'Verschoben', cancelled: 'Storniert', cancel: 'Stornieren', reschedule: 'Verschieben', form: 'Formular', manage: 'Um diese Buchung zu stornieren oder zu verschieben', booking: 'Buchung' },
  pt: { confirmed: 'Reservado', rescheduled: 'Remarcado', cancelled: 'Cancelado', cancel: 'Cancelar', reschedule: 'Remarcar', form: 'Formulário', manage: 'Para cancelar ou remarcar esta reserva', booking: 'Reserva' },
  it: { confirmed: 'Prenotato', rescheduled: 'Spostato', cancelled: 'Annullato', cancel: 'Annulla', reschedule: 'Sposta', form: 'Modulo', manage: 'Per annullare o spostare questa prenotazione', booking: 'Prenotazione' },
  nl: { confirmed: 'Geboekt', rescheduled: 'Verplaatst', cancelled: 'Geannuleerd', cancel: 'Annuleren', reschedule: 'Verplaatsen', form: 'Formulier', manage: 'Om deze boeking te annuleren of te verplaatsen', booking: 'Boeking' },
  pl: { confirmed: 'Zarezerwowano', rescheduled: 'Przeniesiono', cancelled: 'Anulowano', cancel: 'Anuluj', reschedule: 'Zmień termin', form: 'Formularz', manage: 'Aby anulować lub przenieść tę rezerwację', booking: 'Rezerwacja' },
  ja: { confirmed: '予約済み', rescheduled: '変更済み', cancelled: 'キャンセル済み', cancel: 'キャンセル', reschedule: '日時を変更', form: 'フォーム', manage: 'この予約のキャンセル・変更', booking: '予約' },
  zh: { confirmed: '已预约', rescheduled: '已改期', cancelled: '已取消', cancel: '取消', reschedule: '改期', form: '表单', manage: '取消或更改此预约', booking: '预约' },
  ar: { confirmed: 'تم الحجز', rescheduled: 'تم تغيير الموعد', cancelled: 'تم الإلغاء', cancel: 'إلغاء', reschedule: 'تغيير الموعد', form: 'النموذج', manage: 'لإلغاء هذا الحجز أو تغيير موعده', booking: 'حجز' },
  he: { confirmed: 'הוזמן', rescheduled: 'הועבר', cancelled: 'בוטל', cancel: 'ביטול', reschedule: 'שינוי מועד', form: 'טופס', manage: 'לביטול או להעברת ההזמנה', booking: 'הזמנה' },
};

/** The language of the respondent's mail: the first of `tags` (the response's, then the form's) we have words for. */
export function bookingMailLanguage(...tags: unknown[]): string {
  for (const tag of tags) {
    const base = typeof tag === 'string' ? tag.toLowerCase().split(/[-_]/)[0]! : '';
    if (base in BOOKING_MAIL_WORDS) return base;
  }
  return 'en';
}

/** The locale dates are written in for a language (`en` as in the UK: day before month, 24-hour clock). */
export const bookingMailLocale = (language: string) => (language === 'en' ? 'en-GB' : language);
