DROP INDEX `bookings_ref`;--> statement-breakpoint
DROP INDEX `bookings_user`;--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_user_ref` ON `bookings` (`user_id`,`booking_ref`);