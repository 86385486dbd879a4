-- AlterTable
ALTER TABLE "Charge" ADD COLUMN     "attemptData" JSONB;
