"""The messaging port and its adapters: RabbitMQ (pika) and in-process; the outbox and the inbox."""
