/*
 * The words of the booking page that the mails' cancel and reschedule links open (booking-page.ts), in the 12
 * languages the respondent's page speaks (docs/booking.md, "Calendar events and mails"). The respondent's mail
 * links carry `lang=`, the language the mail was written in; the owner's links and unknown tags get English.
 */

export interface BookingPageWords {
  title: string;
  /** `{zone}`: the booking's time zone. */
  timesIn: string;
  cancelled: string;
  inactive: string;
  cancelHeading: string;
  cancelButton: string;
  moveHeading: string;
  earlier: string;
  later: string;
  moveButton: string;
  noTimes: string;
  unavailable: string;
  cancelledNotice: string;
  /** `{when}`: the new time. */
  moved: string;
  pickFirst: string;
}

const W: Record<string, BookingPageWords> = {
  en: { title: 'Your booking', timesIn: 'Times in {zone}.', cancelled: 'This booking is cancelled.', inactive: 'This booking is no longer active.', cancelHeading: 'Cancel', cancelButton: 'Cancel this booking', moveHeading: 'Move to another time', earlier: '‹ Earlier', later: 'Later ›', moveButton: 'Move my booking', noTimes: 'No free times in these days. Try later days.', unavailable: 'The free times cannot be shown just now.', cancelledNotice: 'Your booking is cancelled. A confirmation is on its way by email.', moved: 'Moved to {when}. The new details and links are on their way by email.', pickFirst: 'Pick a time first.' },
  es: { title: 'Tu reserva', timesIn: 'Horas en {zone}.', cancelled: 'Esta reserva está cancelada.', inactive: 'Esta reserva ya no está activa.', cancelHeading: 'Cancelar', cancelButton: 'Cancelar esta reserva', moveHeading: 'Cambiar a otra hora', earlier: '‹ Antes', later: 'Después ›', moveButton: 'Cambiar mi reserva', noTimes: 'No hay horas libres en estos días. Prueba días posteriores.', unavailable: 'Ahora no se pueden mostrar las horas libres.', cancelledNotice: 'Tu reserva está cancelada. Te enviamos una confirmación por correo.', moved: 'Cambiada a {when}. Los nuevos datos y enlaces te llegarán por correo.', pickFirst: 'Elige primero una hora.' },
  fr: { title: 'Votre réservation', timesIn: 'Heures en {zone}.', cancelled: 'Cette réservation est annulée.', inactive: "Cette réservation n'est plus active.", cancelHeading: 'Annuler', cancelButton: 'Annuler cette réservation', moveHeading: 'Déplacer à une autre heure', earlier: '‹ Plus tôt', later: 'Plus tard ›', moveButton: 'Déplacer ma réservation', noTimes: 'Aucun créneau libre ces jours-ci. Essayez des jours plus tard.', unavailable: "Les créneaux libres ne peuvent pas être affichés pour l'instant.", cancelledNotice: 'Votre réservation est annulée. Une confirmation vous est envoyée par e-mail.', moved: 'Déplacée au {when}. Les nouveaux détails et liens vous sont envoyés par e-mail.', pickFirst: "Choisissez d'abord une heure." },
  de: { title: 'Ihre Buchung', timesIn: 'Zeiten in {zone}.', cancelled: 'Diese Buchung ist storniert.', inactive: 'Diese Buchung ist nicht mehr aktiv.', cancelHeading: 'Stornieren', cancelButton: 'Diese Buchung stornieren', moveHeading: 'Auf eine andere Zeit verschieben', earlier: '‹ Früher', later: 'Später ›', moveButton: 'Meine Buchung verschieben', noTimes: 'Keine freien Zeiten an diesen Tagen. Versuchen Sie spätere Tage.', unavailable: 'Die freien Zeiten können gerade nicht angezeigt werden.', cancelledNotice: 'Ihre Buchung ist storniert. Eine Bestätigung ist per E-Mail unterwegs.', moved: 'Verschoben auf {when}. Die neuen Angaben und Links kommen per E-Mail.', pickFirst: 'Wählen Sie zuerst eine Zeit.' },
  pt: { title: 'A sua reserva', timesIn: 'Horários em {zone}.', cancelled: 'Esta reserva está cancelada.', inactive: 'Esta reserva já não está ativa.', cancelHeading: 'Cancelar', cancelButton: 'Cancelar esta reserva', moveHeading: 'Mudar para outro horário', earlier: '‹ Antes', later: 'Depois ›', moveButton: 'Mudar a minha reserva', noTimes: 'Não há horários livres nestes dias. Experimente dias posteriores.', unavailable: 'Os horários livres não podem ser mostrados agora.', cancelledNotice: 'A sua reserva está cancelada. Uma confirmação segue por e-mail.', moved: 'Mudada para {when}. Os novos dados e links seguem por e-mail.', pickFirst: 'Escolha primeiro um horário.' },
  it: { title: 'La tua prenotazione', timesIn: 'Orari in {zone}.', cancelled: 'Questa prenotazione è annullata.', inactive: 'Questa prenotazione non è più attiva.', cancelHeading: 'Annulla', cancelButton: 'Annulla questa prenotazione', moveHeading: 'Sposta a un altro orario', earlier: '‹ Prima', later: 'Dopo ›', moveButton: 'Sposta la mia prenotazione', noTimes: 'Nessun orario libero in questi giorni. Prova giorni successivi.', unavailable: 'Gli orari liberi non possono essere mostrati ora.', cancelledNotice: 'La tua prenotazione è annullata. Ti arriverà una conferma via email.', moved: 'Spostata a {when}. I nuovi dettagli e link ti arriveranno via email.', pickFirst: 'Scegli prima un orario.' },
  nl: { title: 'Je boeking', timesIn: 'Tijden in {zone}.', cancelled: 'Deze boeking is geannuleerd.', inactive: 'Deze boeking is niet meer actief.', cancelHeading: 'Annuleren', cancelButton: 'Deze boeking annuleren', moveHeading: 'Naar een andere tijd verplaatsen', earlier: '‹ Eerder', later: 'Later ›', moveButton: 'Mijn boeking verplaatsen', noTimes: 'Geen vrije tijden op deze dagen. Probeer latere dagen.', unavailable: 'De vrije tijden kunnen nu niet worden getoond.', cancelledNotice: 'Je boeking is geannuleerd. Een bevestiging komt per e-mail.', moved: 'Verplaatst naar {when}. De nieuwe gegevens en links komen per e-mail.', pickFirst: 'Kies eerst een tijd.' },
  pl: { title: 'Twoja rezerwacja', timesIn: 'Godziny w strefie {zone}.', cancelled: 'Ta rezerwacja jest anulowana.', inactive: 'Ta rezerwacja nie jest już aktywna.', cancelHeading: 'Anuluj', cancelButton: 'Anuluj tę rezerwację', moveHeading: 'Przenieś na inny termin', earlier: '‹ Wcześniej', later: 'Później ›', moveButton: 'Przenieś moją rezerwację', noTimes: 'Brak wolnych terminów w tych dniach. Spróbuj późniejszych dni.', unavailable: 'Nie można teraz pokazać wolnych terminów.', cancelledNotice: 'Twoja rezerwacja jest anulowana. Potwierdzenie wysłaliśmy e-mailem.', moved: 'Przeniesiono na {when}. Nowe szczegóły i linki wysłaliśmy e-mailem.', pickFirst: 'Najpierw wybierz termin.' },
  ja: { title: 'ご予約', timesIn: '時刻は {zone} です。', cancelled: 'この予約はキャンセルされています。', inactive: 'この予約は有効ではありません。', cancelHeading: 'キャンセル', cancelButton: 'この予約をキャンセル', moveHeading: '別の時間に変更', earlier: '‹ 前へ', later: '次へ ›', moveButton: '予約を変更', noTimes: 'この期間に空き時間はありません。後の日付をお試しください。', unavailable: '現在、空き時間を表示できません。', cancelledNotice: '予約をキャンセルしました。確認メールをお送りします。', moved: '{when} に変更しました。新しい詳細とリンクをメールでお送りします。', pickFirst: '先に時間を選んでください。' },
  zh: { title: '您的预约', timesIn: '时间为 {zone}。', cancelled: '此预约已取消。', inactive: '此预约已失效。', cancelHeading: '取消', cancelButton: '取消此预约', moveHeading: '改到其他时间', earlier: '‹ 更早', later: '更晚 ›', moveButton: '更改我的预约', noTimes: '这些天没有空闲时间。请尝试之后的日期。', unavailable: '暂时无法显示空闲时间。', cancelledNotice: '您的预约已取消。确认邮件即将发送。', moved: '已改到 {when}。新的详情和链接将通过邮件发送。', pickFirst: '请先选择一个时间。' },
  ar: { title: 'حجزك', timesIn: 'الأوقات بتوقيت {zone}.', cancelled: 'هذا الحجز ملغى.', inactive: 'هذا الحجز لم يعد ساريًا.', cancelHeading: 'إلغاء', cancelButton: 'إلغاء هذا الحجز', moveHeading: 'النقل إلى وقت آخر', earlier: '‹ أبكر', later: 'لاحقًا ›', moveButton: 'نقل حجزي', noTimes: 'لا توجد أوقات متاحة في هذه الأيام. جرّب أيامًا لاحقة.', unavailable: 'لا يمكن عرض الأوقات المتاحة الآن.', cancelledNotice: 'تم إلغاء حجزك. سيصلك تأكيد بالبريد الإلكتروني.', moved: 'تم النقل إلى {when}. ستصلك التفاصيل والروابط الجديدة بالبريد الإلكتروني.', pickFirst: 'اختر وقتًا أولًا.' },
  he: { title: 'ההזמנה שלך', timesIn: 'השעות לפי {zone}.', cancelled: 'ההזמנה הזו בוטלה.', inactive: 'ההזמנה הזו אינה פעילה עוד.', cancelHeading: 'ביטול', cancelButton: 'ביטול ההזמנה', moveHeading: 'העברה למועד אחר', earlier: '‹ מוקדם יותר', later: 'מאוחר יותר ›', moveButton: 'העברת ההזמנה שלי', noTimes: 'אין זמנים פנויים בימים אלה. נסו ימים מאוחרים יותר.', unavailable: 'לא ניתן להציג כעת את הזמנים הפנויים.', cancelledNotice: 'ההזמנה שלך בוטלה. אישור נשלח בדוא"ל.', moved: 'הועבר ל־{when}. הפרטים והקישורים החדשים נשלחים בדוא"ל.', pickFirst: 'בחרו קודם מועד.' },
};

/** The page's language from the link's `lang` (a language we have words for), else English. */
export const bookingPageLanguage = (tag: unknown): string => (typeof tag === 'string' && Object.hasOwn(W, tag) ? tag : 'en');

export const bookingPageWords = (language: string): BookingPageWords => W[language] ?? W.en!;

/** The locale dates are written in (`en` as in the UK, as the mails write them). */
export const bookingPageLocale = (language: string) => (language === 'en' ? 'en-GB' : language);

export const RTL: readonly string[] = ['ar', 'he'];
