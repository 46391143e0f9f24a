import { Socket, connect } from 'net';
import { config } from '../config';
import { Invoice } from '../models/invoice';
import { formatPrice } from '../models/product';
import { formatIsoDate } from '../utils/date';
import { logger } from '../utils/logger';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface MailTransport {
  send(message: EmailMessage): Promise<void>;
}

/**
 * Extremely small SMTP client, good enough for the local MailHog/Mailpit
 * container used in development. Production uses the relay configured via
 * SMTP_HOST, which accepts unauthenticated mail from the cluster network.
 */
export class SmtpTransport implements MailTransport {
  constructor(private readonly host: string, private readonly port: number, private readonly from: string) {}

  send(message: EmailMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket: Socket = connect(this.port, this.host);
      const commands = [
        `HELO auth-service`,
        `MAIL FROM:<${this.from}>`,
        `RCPT TO:<${message.to}>`,
        'DATA',
        `From: ${this.from}\r\nTo: ${message.to}\r\nSubject: ${message.subject}\r\n\r\n${message.text}\r\n.`,
        'QUIT',
      ];
      socket.setTimeout(10_000, () => socket.destroy(new Error('smtp timeout')));
      socket.on('data', () => {
        const next = commands.shift();
        if (next !== undefined) socket.write(next + '\r\n');
      });
      socket.on('error', reject);
      socket.on('close', () => resolve());
    });
  }
}

export class NotificationService {
  constructor(private readonly transport: MailTransport) {}

  async sendWelcome(to: string, displayName: string): Promise<void> {
    await this.deliver({
      to,
      subject: 'Welcome to the store',
      text: `Hi ${displayName},\n\nyour account is ready. Happy shopping!`,
    });
  }

  async sendEmailVerification(to: string, link: string): Promise<void> {
    await this.deliver({
      to,
      subject: 'Confirm your email address',
      text: `Please confirm your email address by opening this link:\n${link}\n\nThe link stays valid for 48 hours.`,
    });
  }

  async sendInvoice(to: string, invoice: Invoice): Promise<void> {
    await this.deliver({
      to,
      subject: `Invoice ${invoice.number}`,
      text: [
        `Invoice number: ${invoice.number}`,
        `Amount due: ${formatPrice(invoice.totalCents, invoice.currency)}`,
        `Due date: ${formatIsoDate(invoice.dueAt)}`,
      ].join('\n'),
    });
  }

  async sendCouponReminder(to: string, code: string, validUntil: Date): Promise<void> {
    await this.deliver({
      to,
      subject: `Your coupon ${code} expires soon`,
      text: `Don't forget: coupon ${code} can be used until ${formatIsoDate(validUntil)}.`,
    });
  }

  private async deliver(message: EmailMessage): Promise<void> {
    try {
      await this.transport.send(message);
      logger.info('email sent', { to: message.to, subject: message.subject });
    } catch (err) {
      // Email is best effort; a failing relay must not fail the user's request.
      logger.error('email delivery failed', { to: message.to, subject: message.subject, err });
    }
  }
}

export const notificationService = new NotificationService(
  new SmtpTransport(config.mail.smtpHost, config.mail.smtpPort, config.mail.from),
);
