-- AlterTable
ALTER TABLE "UnknownOutcome" ADD COLUMN     "resolvedReference" TEXT;
