help irq-check
