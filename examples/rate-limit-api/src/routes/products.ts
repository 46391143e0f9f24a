import { Router } from 'express';
import { productsController } from '../controllers/products.controller';
import { requireJsonBody, validateId } from '../middleware/validate';
import { ID_PREFIX } from '../utils/ids';

export const productsRouter = Router();

const productId = validateId(ID_PREFIX.product);

// Read-only catalogue browsing
productsRouter.get('/', productsController.list);
productsRouter.get('/low-stock', productsController.lowStock);
productsRouter.get('/:id', productId, productsController.show);

// Catalogue management
productsRouter.post('/', requireJsonBody, productsController.create);
productsRouter.patch('/:id', productId, requireJsonBody, productsController.update);
productsRouter.post('/:id/publish', productId, productsController.publish);
productsRouter.post('/:id/restock', productId, requireJsonBody, productsController.restock);
